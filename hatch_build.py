"""Install-time build of the solver's compiled core, where a C compiler is found.

pitchkeeper/game/search.py is Cython in pure-Python mode: the same source is the plain-Python solver
(always installed) and, compiled here, the fast one. Without a C compiler (or when the compile fails
for any reason) the build says so in one warning and goes on: the package is whole without it.
PITCHKEEPER_PURE=1 skips the compile on purpose.

A regular wheel carries the compiled module beside its source; an editable install builds it in place
in the source tree. Either way a file `search.built` beside it holds the checksum of the source it was
built from, so a compiled module older than its source is never used (game.solver.cores).
"""

from __future__ import annotations

import os
import shlex
import shutil
import sysconfig
import tempfile
import zlib
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface

MODULE = "pitchkeeper.game.search"


def compiler() -> str | None:
    """The C compiler the build would call (CC, else Python's own), if it is there."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or ""
    words = shlex.split(cc)
    return shutil.which(words[0]) if words else None


class SolverCoreHook(BuildHookInterface):  # type: ignore[type-arg]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """Cython and setuptools, only where there is a compiler for them to drive (an install without one
        fetches nothing more than hatchling)."""
        if os.environ.get("PITCHKEEPER_PURE") or compiler() is None:
            return []
        return ["Cython>=3.0", "setuptools>=61"]

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or os.environ.get("PITCHKEEPER_PURE"):
            return
        source = Path(self.root) / "pitchkeeper" / "game" / "search.py"
        work = Path(tempfile.mkdtemp(prefix="pitchkeeper-core-"))
        try:
            built = compile_core(source, work)
        except Exception as e:  # no compiler, no Cython, a failed compile: the pure-Python solver it is
            self.app.display_warning(f"pitchkeeper: the solver's compiled core was not built ({type(e).__name__}: "
                                     f"{str(e).strip().splitlines()[-1] if str(e).strip() else 'no detail'}); "
                                     "the plain-Python solver is used (same answers, slower)")
            return
        stamp = work / "search.built"
        stamp.write_text(f"{zlib.crc32(source.read_bytes()):08x}\n", encoding="ascii")
        if version == "editable":  # the source tree is what the editable install imports: build in place
            (source.parent / built.name).write_bytes(built.read_bytes())
            (source.parent / "search.built").write_bytes(stamp.read_bytes())
        else:
            build_data["force_include"][str(built)] = f"pitchkeeper/game/{built.name}"
            build_data["force_include"][str(stamp)] = "pitchkeeper/game/search.built"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"pitchkeeper: built the solver's compiled core ({built.name})")


def compile_core(source: Path, work: Path) -> Path:
    """Cythonize and compile search.py in `work`; the path of the extension module built."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    ext = Extension(MODULE, [str(source)])
    exts = cythonize([ext], quiet=True, build_dir=str(work / "c"), language_level=3,
                     compiler_directives={"boundscheck": False, "wraparound": False})
    dist = Distribution({"name": "pitchkeeper-core", "ext_modules": exts})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(work / "lib")  # type: ignore[attr-defined]
    cmd.build_temp = str(work / "tmp")  # type: ignore[attr-defined]
    cmd.ensure_finalized()
    cmd.run()
    return Path(cmd.get_ext_fullpath(MODULE))  # type: ignore[attr-defined]
