"""Where the repository is: every module that reads or writes a file of the checkout names it from ROOT."""
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
