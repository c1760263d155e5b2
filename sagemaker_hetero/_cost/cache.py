"""The on-disk cache of prices read from the AWS Price List: one small JSON file per region and
instance type, used for a week (``_defaults.PRICE_CACHE_SECONDS``), then read again.

It lives in ``$XDG_CACHE_HOME/sagemaker-hetero/prices/<region>/<type>.json`` (``~/.cache`` when
``XDG_CACHE_HOME`` is unset or not an absolute path). Our folders are created 0700; below the
user's cache folder every step is opened without following links and must be a folder of this
user's, so a link or someone else's folder there is never read or written through. A price is
written to a temporary name and renamed over the old one: a reader finds the old price or the
new one, never half of either. The cache only saves calls: a failure to read or write it is a
miss, never an error.
"""
import json
import os
import stat
import time

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._cost.prices import Price, is_instance_type, is_region, usd

__all__ = ["PriceCache", "cache_root", "CACHED"]

#: How a cached price names where it came from.
CACHED = "AWS Price List (cached)"
_FOLDER = "prices"
_MAX_BYTES = 1 << 16
_FUTURE_SLACK = 300  # a file stamped later than this from now was not written by a sane clock
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)


def cache_root(environ=None):
    """The folder of our cache: ``$XDG_CACHE_HOME/sagemaker-hetero``, else ``~/.cache/sagemaker-hetero``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, D.CACHE_FOLDER)


def _supported():
    return hasattr(os, "O_NOFOLLOW") and all(f in os.supports_dir_fd for f in (os.open, os.mkdir, os.rename, os.unlink))


class PriceCache(object):
    """Prices kept in ``root`` (default :func:`cache_root`) for ``lifetime`` seconds by ``clock``."""

    def __init__(self, root=None, clock=time.time, lifetime=D.PRICE_CACHE_SECONDS):
        self.root = root if root is not None else cache_root()
        self.clock = clock
        self.lifetime = lifetime

    def _open_folder(self, names, create):
        """A descriptor of ``root/names...``, each step below the root's parent opened without
        following links and checked to be this user's folder; None if that cannot be."""
        base, top = os.path.split(os.path.abspath(self.root))
        if create:
            os.makedirs(base, mode=0o700, exist_ok=True)
        fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            for name in (top,) + tuple(names):
                if create:
                    try:
                        os.mkdir(name, 0o700, dir_fd=fd)
                    except FileExistsError:
                        pass
                child = os.open(name, _DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = child
                info = os.fstat(fd)
                if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
                    raise OSError("not this user's folder: %s" % name)
            return fd
        except BaseException:
            os.close(fd)
            raise

    def get(self, region, instance_type):
        """The cached :class:`Price` of ``instance_type`` in ``region``, or None (none, too old, unreadable)."""
        if not (_supported() and is_region(region) and is_instance_type(instance_type)):
            return None
        try:
            folder = self._open_folder((_FOLDER, region), create=False)
        except OSError:
            return None
        try:
            fd = os.open(instance_type + ".json", os.O_RDONLY | os.O_NOFOLLOW | getattr(os, "O_NONBLOCK", 0),
                         dir_fd=folder)
            try:
                if not stat.S_ISREG(os.fstat(fd).st_mode):
                    return None
                data = json.loads(os.read(fd, _MAX_BYTES).decode("utf-8"))
            finally:
                os.close(fd)
            return self._price(data, region, instance_type)
        except (OSError, ValueError, TypeError, AttributeError, KeyError):
            return None
        finally:
            os.close(folder)

    def _price(self, data, region, instance_type):
        fetched = float(data["fetched"])
        now = self.clock()
        if data.get("region") != region or data.get("instance_type") != instance_type:
            return None
        if not (now - self.lifetime < fetched <= now + _FUTURE_SLACK):
            return None
        return Price(instance_type, region, usd(data["usd_per_hour"]), CACHED, _date(fetched))

    def put(self, price):
        """Keep ``price`` (read from the Price List now); True if it was written."""
        region, instance_type = price.region, price.instance_type
        if not (_supported() and is_region(region) and is_instance_type(instance_type)):
            return False
        body = json.dumps({"region": region, "instance_type": instance_type, "usd_per_hour": str(price.usd_per_hour),
                           "fetched": self.clock()}).encode("utf-8")
        try:
            folder = self._open_folder((_FOLDER, region), create=True)
        except OSError:
            return False
        name = instance_type + ".json"
        temporary = ".%s.%s.tmp" % (name, os.urandom(6).hex())
        try:
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600, dir_fd=folder)
            try:
                os.write(fd, body)
                os.fsync(fd)
            finally:
                os.close(fd)
            os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
            return True
        except OSError:
            try:
                os.unlink(temporary, dir_fd=folder)
            except OSError:
                pass
            return False
        finally:
            os.close(folder)


def _date(epoch):
    return time.strftime("%Y-%m-%d", time.gmtime(epoch))
