"""``python -m romecore``: the command line (:mod:`romecore.cli`), as the ``romecore`` script."""

from romecore.cli import main

if __name__ == "__main__":
    main()
