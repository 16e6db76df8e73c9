//! placeholder until the world lands
