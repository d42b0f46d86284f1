"""`python -m cardroom.native_build`: compile the modules `cardroom.native` loads (run by
`make setup`). Nothing is lost when it cannot: the sources then run as they are."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from cardroom.native import BUILD, MODULES, PACKAGE, ROOT, _source, _suffix, current


def build(folder: Path = BUILD) -> bool:
    """Compile `MODULES` with mypyc into `folder`; False (and the reason on stderr) when it
    cannot, in which case the sources run as they are."""
    if current(folder) is not None:
        return True
    with tempfile.TemporaryDirectory(prefix="cardroom-native-") as tmp:
        work = Path(tmp)
        shutil.copytree(PACKAGE, work / "cardroom", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
        shutil.copy(ROOT / "pyproject.toml", work / "pyproject.toml")
        sources = [str(_source(m).relative_to(ROOT)) for m in MODULES]
        digests = {
            m: hashlib.sha256((work / f).read_bytes()).hexdigest()
            for m, f in zip(MODULES, sources, strict=True)
        }
        try:
            done = subprocess.run(
                [sys.executable, "-m", "mypyc", *sources], cwd=work, capture_output=True, text=True
            )
        except OSError as error:
            print(f"cardroom.native: not compiled ({error}); the sources run as they are", file=sys.stderr)
            return False
        if done.returncode != 0:
            print(done.stdout[-2000:] + done.stderr[-2000:], file=sys.stderr)
            print("cardroom.native: not compiled; the sources run as they are", file=sys.stderr)
            return False
        shared = [p for p in work.glob("*__mypyc" + _suffix())]
        if len(shared) != 1:
            print("cardroom.native: no shared library was built", file=sys.stderr)
            return False
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        for module in MODULES:
            built = work.joinpath(*module.split(".")).with_suffix(_suffix())
            shutil.copy(built, folder / (module + _suffix()))
        shared_name = shared[0].name[: -len(_suffix())]
        shutil.copy(shared[0], folder / shared[0].name)
    manifest = {"suffix": _suffix(), "shared": shared_name, "modules": digests}
    (folder / "manifest.json").write_text(json.dumps(manifest, indent=1))
    return True


def main() -> int:
    ok = build()
    print(f"cardroom.native: {'compiled modules in ' + str(BUILD) if ok else 'sources only'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
