"""Registered paper reproductions, one module per paper.

Each module defines ``PAPER = Paper(...)`` (see :mod:`vhsim.campaign.reproduce`);
``vhsim reproduce NAME`` finds it by scanning this package, so a new paper needs no
other registration.  ``demo`` shows the shape with a small campaign of our own.
"""
