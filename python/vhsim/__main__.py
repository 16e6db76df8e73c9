"""Allow ``python -m vhsim ...`` as an alias of the ``vhsim`` command."""

from .cli import main

if __name__ == "__main__":
    main()
