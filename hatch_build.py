"""Install-time build of the solver's compiled core, where a C compiler is found.

pitchkeeper/game/search.py and the state it builds on, hand_state.py (its C layout in hand_state.pxd), are
Cython in pure-Python mode: the same source is the plain-Python solver (always installed) and, compiled
here, the fast one. Without a C compiler (or when the compile fails
for any reason) the build says so in one warning and goes on: the package is whole without it.
PITCHKEEPER_PURE=1 skips the compile on purpose.

A regular wheel carries the compiled modules beside their source; an editable install builds them in
place in the source tree. Either way a file `search.built` beside them holds the checksum of the sources
they were built from, so a compiled core older than its sources is never used (game.solver.cores).
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

MODULES = ("hand_state", "search")  # pitchkeeper.game.<name>: the state, then the search built on it
SOURCES = ("hand_state.pxd", "hand_state.py", "search.py")  # checksummed into search.built (game.solver.CORE_SOURCES)


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
        game = Path(self.root) / "pitchkeeper" / "game"
        work = Path(tempfile.mkdtemp(prefix="pitchkeeper-core-"))
        try:
            built = compile_core(Path(self.root), work)
        except Exception as e:  # no compiler, no Cython, a failed compile: the pure-Python solver it is
            self.app.display_warning(f"pitchkeeper: the solver's compiled core was not built ({type(e).__name__}: "
                                     f"{str(e).strip().splitlines()[-1] if str(e).strip() else 'no detail'}); "
                                     "the plain-Python solver is used (same answers, slower)")
            return
        stamp = work / "search.built"
        stamp.write_text(f"{zlib.crc32(b''.join((game / name).read_bytes() for name in SOURCES)):08x}\n",
                         encoding="ascii")
        if version == "editable":  # the source tree is what the editable install imports: build in place
            for module in built:
                (game / module.name).write_bytes(module.read_bytes())
            (game / "search.built").write_bytes(stamp.read_bytes())
        else:
            for module in built:
                build_data["force_include"][str(module)] = f"pitchkeeper/game/{module.name}"
            build_data["force_include"][str(stamp)] = "pitchkeeper/game/search.built"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True
        self.app.display_info(f"pitchkeeper: built the solver's compiled core ({', '.join(m.name for m in built)})")


def compile_core(root: Path, work: Path) -> list[Path]:
    """Cythonize and compile the core's modules in `work` (search.py cimports the state's declarations,
    hand_state.pxd, from the source tree); the paths of the extension modules built."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension

    exts = [Extension(f"pitchkeeper.game.{name}", [str(root / "pitchkeeper" / "game" / f"{name}.py")]) for name in MODULES]
    exts = cythonize(exts, quiet=True, build_dir=str(work / "c"), language_level=3, include_path=[str(root)],
                     compiler_directives={"boundscheck": False, "wraparound": False})
    dist = Distribution({"name": "pitchkeeper-core", "ext_modules": exts})
    cmd = dist.get_command_obj("build_ext")
    cmd.build_lib = str(work / "lib")  # type: ignore[attr-defined]
    cmd.build_temp = str(work / "tmp")  # type: ignore[attr-defined]
    cmd.ensure_finalized()
    cmd.run()
    return [Path(cmd.get_ext_fullpath(f"pitchkeeper.game.{name}")) for name in MODULES]  # type: ignore[attr-defined]
