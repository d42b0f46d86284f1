"""The tests. Set before any of them imports the store: accounts hash their passwords at
argon2id's lowest cost (`cardroom.store.accounts`, PASSWORD_COST_ENV), here and in every server
the tests start, which inherit it; tests/store/test_accounts.py holds the recommended cost as
the default everywhere else."""

import os

os.environ.setdefault("CARDROOM_PASSWORD_COST", "low")
