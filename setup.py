"""The standalone game, built with Panda3D's build_apps: the interpreter, Panda3D, the game's
frozen modules and its files, for each platform, from one machine.

    scripts/build_release.sh        # builds every platform and packs dist/ (see README)

The name, version and dependencies stay in pyproject.toml; this file only configures
build_apps (which reads its options from setup()). Installing the game with pip runs it too
(setuptools does), before Panda3D is there: then it configures nothing.
"""

from setuptools import setup

try:
    from direct.dist.commands import build_apps
except ImportError:   # pip installing the game runs this file too, where Panda3D is not installed yet
    build_apps = None

APP = "villa-paletti"

# Targets: 64-bit Linux (glibc 2.17 and later; TLS to a fleet's Redis where the system has OpenSSL 3.3 or later:
# villa/app/without_ssl.py; the game's own TLS everywhere, through the OpenSSL the cryptography wheel carries),
# 64-bit Windows, macOS on Intel (10.13 and later, also under Rosetta) and on Apple silicon (11 and later).
PLATFORMS = ["manylinux2014_x86_64", "win_amd64", "macosx_10_13_x86_64", "macosx_11_0_arm64"]

# The game's files beside the executable, in the same folders as in a checkout.
ASSETS = [
    "textures/*.jpg",
    "models/*.bam",
    "sounds/*.wav",
    "fonts/*.woff",         # DejaVu, and the fallback for Chinese and Japanese names (scripts/pack_fonts.py)
    "fonts/LICENSE*",       # DejaVu's, and Droid Sans Fallback's (Apache 2.0)
    "icons/*.png",
    "icons/*.ico",
    "villa/locale/*/LC_MESSAGES/villa.mo",
]

# Modules the game never runs, though something it imports mentions them. Leaving them out
# keeps the download small; the built game's own test (scripts/build_release.sh) proves
# nothing needed went with them.
UNUSED_MODULES = [
    # the standard library's network, mail, archive and developer tools (not ssl: rediss://, a fleet's Redis
    # over TLS, speaks it)
    "_hashlib", "http", "urllib.request", "ftplib", "smtplib", "netrc", "getpass",
    "tarfile", "lzma", "_lzma", "bz2", "_bz2", "xml", "pyexpat", "plistlib",
    "decimal", "_decimal", "_pydecimal", "fractions", "statistics",
    "tkinter", "_tkinter", "doctest", "unittest",
    "pydoc", "pdb", "lib2to3", "idlelib", "turtle",
    "xmlrpc", "sqlite3", "curses", "tracemalloc",
    # the codecs of East Asian legacy encodings (Shift JIS, GB 2312, Big5, EUC-KR ...): players' names are Unicode
    # strings and every file and message is UTF-8, so nothing decodes them (1 MB on Linux and macOS; Windows' Python
    # has them built in)
    "_codecs_cn", "_codecs_hk", "_codecs_tw", "_codecs_kr", "_codecs_jp", "_codecs_iso2022", "_multibytecodec",
    # Python's own test suite (multiprocessing names it for its tests), with its compiled helpers
    "test", "_testcapi", "_testinternalcapi",
    # redis' commands for Redis' modules (search, JSON, time series, Bloom filters, vector sets), its client of
    # many databases and its OCSP checks (which need the cryptography package): the fleet uses none of them
    "redis.commands.search", "redis.commands.json", "redis.commands.timeseries", "redis.commands.bf",
    "redis.commands.vectorset", "redis.multidb", "redis.asyncio.multidb", "redis.data_structure", "redis.ocsp",
    # development tools that a checkout has installed
    "pytest", "hypothesis", "setuptools", "pkg_resources", "distutils", "pip",
    # Pillow's parts the game never calls (it writes animated WebP only): colour management, fonts, image maths,
    # Tk and Qt, AVIF (8 MB with its library), drawing, showing and grabbing pictures
    "PIL.ImageCms", "PIL._imagingcms", "PIL.ImageFont", "PIL._imagingft", "PIL.ImageMath", "PIL._imagingmath",
    "PIL.ImageTk", "PIL._imagingtk", "PIL.ImageQt", "PIL.ImageShow", "PIL.AvifImagePlugin", "PIL._avif",
    "PIL.ImageMorph", "PIL._imagingmorph", "PIL.ImageDraw", "PIL.ImageDraw2", "PIL.ImageGrab", "PIL.ImageWin",
    "PIL.PSDraw", "PIL.ImageText",
    # numpy's parts the game never calls (numpy loads them only on first use)
    "numpy.random", "numpy.fft", "numpy.polynomial", "numpy.ma", "numpy.testing", "numpy.f2py",
    "numpy.distutils", "numpy.typing",
    # Panda3D's editors, networking and the physics and animation the game does not use
    "direct.tkpanels", "direct.tkwidgets", "direct.p3d", "direct.dist", "direct.distributed",
    "direct.wxwidgets", "direct.cluster", "direct.directdevices",
    "direct.particles", "direct.physics", "direct.actor",
    "panda3d.egg", "panda3d.ode", "panda3d.physx", "panda3d.vision", "panda3d.skel",
    "panda3d.ai", "panda3d.physics",
]

BUILD_APPS = {
    "gui_apps": {APP: "villa/__main__.py"},
    "console_apps": {f"{APP}-server": "villa/app/dedicated.py"},   # the dedicated server, no display
    "include_patterns": ASSETS,
    # the walk for assets starts at the project's top: keep it out of these
    "exclude_patterns": [".venv/**", ".git/**", "build/**", "dist/**", "tests/**", "docs/**"],
    # (build_apps' module finder takes redis' `from .hiredis import` for the hiredis package, which is not there;
    # and cannot see cffi's _cffi_backend, which cryptography's compiled bindings import for pyOpenSSL)
    "include_modules": {"*": ["villa.app.main", "villa.app.dedicated", "redis._parsers.hiredis", "_cffi_backend",
                              "PIL.WebPImagePlugin"]},
    "exclude_modules": {"*": UNUSED_MODULES},
    # OpenGL and OpenAL only: no software renderer, no FFmpeg, no model loaders
    "plugins": ["pandagl", "p3openal_audio"],
    "platforms": PLATFORMS,
    "icons": {APP: [f"icons/{APP}-{size}.png" for size in (256, 128, 64, 48, 32, 16)]},
    "build_base": "build/apps",
    "requirements_path": "build/requirements.txt",  # written from pyproject.toml by the build
    # the wheels come from PyPI alone
    "use_optimized_wheels": False,
    "pypi_extra_indexes": [],
}



class BuildApps(build_apps or object):
    """Panda3D's build_apps, with each macOS bundle laid out as macOS expects once there is a console
    program too: the programs in Contents/MacOS, the libraries in Frameworks, the files in Resources.
    (Panda3D 1.10.16 asks `fname in self.gui_apps or self.console_apps`, true for every file when there is
    a console program, and so moves everything into Contents/MacOS.)"""

    def bundle_macos_app(self, builddir):
        gui, console = self.gui_apps, self.console_apps
        self.gui_apps, self.console_apps = {**gui, **console}, {}
        try:
            super().bundle_macos_app(builddir)
        finally:
            self.gui_apps, self.console_apps = gui, console


if __name__ == "__main__":
    setup(options={"build_apps": BUILD_APPS}, cmdclass={"build_apps": BuildApps} if build_apps else {})
