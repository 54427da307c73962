"""Fixtures and hooks of the backend contract suite.

They live in ``contract_env.py`` (a uniquely named module) so the test files can import
helpers from it: ``from conftest import ...`` resolved to whichever conftest pytest had
imported last when the whole tree was collected. pytest finds fixtures and hooks by
attribute, so they are re-exported here.
"""

import contract_env

globals().update({k: v for k, v in vars(contract_env).items() if not k.startswith("__")})
