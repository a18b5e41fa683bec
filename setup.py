"""Build: every .pyx under src/romecore and src/plugins becomes an optimised extension.

The Cython kernels validate their own input, so bounds and wraparound checks are off and
the C is compiled with -O3.  ROMECORE_BUILD_ONLY=substr[,substr] limits a development
build (``python setup.py build_ext --inplace``) to matching modules.  ROMECORE_SANITIZE=1
builds with AddressSanitizer and UndefinedBehaviorSanitizer instead (-O1 -g; run Python with
the sanitizer runtimes preloaded, as ``scripts/sanitize.sh`` does).  A release build drops
the debug information Python's own CFLAGS ask for (-g0: five times smaller modules);
ROMECORE_DEBUG=1 keeps it, for gdb.  The generated .c files stay out of the wheel and the sdist.
"""

import glob
import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup

SRC = "src"
PLUGINS = os.path.join(SRC, "plugins")
INCLUDE = os.path.join(SRC, "romecore", "core", "include")


def module_name(path: str) -> str:
    base = PLUGINS if path.startswith(PLUGINS + os.sep) else SRC
    return os.path.splitext(os.path.relpath(path, base))[0].replace(os.sep, ".")


def compile_and_link_flags() -> tuple[list[str], list[str]]:
    """The extra compiler and linker flags: release, sanitizer or debug build (see above)."""
    flags = ["-O3", "-fno-strict-aliasing", "-Wno-unused-function"]
    if platform.machine().lower() in ("x86_64", "amd64"):
        flags.append("-mpopcnt")  # every x86-64 CPU since 2008; bitboards count bits a lot
    if os.environ.get("ROMECORE_SANITIZE"):
        sanitize = ["-fsanitize=address,undefined", "-fno-sanitize-recover=undefined",
                    "-fno-omit-frame-pointer", "-g"]
        return [f for f in flags if f != "-O3"] + ["-O1"] + sanitize, sanitize
    if not os.environ.get("ROMECORE_DEBUG"):
        # Python's CFLAGS carry -g: 80% of each module was DWARF.  The symbol table stays,
        # so perf and gdb backtraces still name the functions.
        flags.append("-g0")
    return flags, []


def extensions():
    sources = sorted(glob.glob(os.path.join(SRC, "romecore", "**", "*.pyx"), recursive=True)
                     + glob.glob(os.path.join(PLUGINS, "**", "*.pyx"), recursive=True))
    only = [s for s in os.environ.get("ROMECORE_BUILD_ONLY", "").split(",") if s]
    if only:
        sources = [p for p in sources if any(s in p for s in only)]
    flags, link = compile_and_link_flags()
    exts = [
        Extension(
            module_name(p),
            [p],
            include_dirs=[INCLUDE],
            extra_compile_args=flags,
            extra_link_args=link,
        )
        for p in sources
    ]
    return cythonize(
        exts,
        include_path=[SRC, PLUGINS],
        compiler_directives={
            # Kernels switch bounds and wraparound checks off in their own headers; the
            # Python-facing modules keep Python semantics.
            "language_level": 3,
            "embedsignature": True,
        },
        nthreads=int(os.environ.get("ROMECORE_BUILD_JOBS", "2")),
    )


plugin_packages = find_packages(PLUGINS)
package_dir = {"": SRC}
for pkg in plugin_packages:
    if "." not in pkg:
        package_dir[pkg] = os.path.join(PLUGINS, pkg)

setup(
    packages=find_packages(SRC, exclude=["plugins", "plugins.*"]) + plugin_packages,
    package_dir=package_dir,
    # stubs and headers for plugin builds, the record schema, shipped learned weights and their
    # loss curves, the web app's static page, each game's rules primer
    package_data={"": ["*.pxd", "*.pyi", "*.h", "*.json", "py.typed", "primer.md",
                       "weights/*.npz", "weights/*.png", "weights/*.md",
                       "static/*.html", "static/*.js", "static/*.css"]},
    # build inputs and leftovers: the sdist (MANIFEST.in) carries the .pyx, cythonize lists the
    # generated .c as the extensions' sources, and include_package_data would ship both
    exclude_package_data={"": ["*.c", "*.pyx"]},
    ext_modules=extensions(),
    zip_safe=False,
)
