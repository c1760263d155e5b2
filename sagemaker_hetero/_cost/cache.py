"""Our private on-disk cache (:class:`Shelf`), and the prices kept on it (:class:`PriceCache`).

The cache is small JSON files below ``$XDG_CACHE_HOME/sagemaker-hetero`` (:func:`cache_root`;
``~/.cache`` when ``XDG_CACHE_HOME`` is unset or not an absolute path), each used for a lifetime from
when it was written, then made again: the prices read from the AWS Price List
(``prices/<region>/<type>.json``, a week, ``_defaults.PRICE_CACHE_SECONDS``) and the preflight's
quota-name map (``quota-codes-<region>.json``, a day: ``_preflight.cache``).

Our folders are created 0700; below the user's cache folder every step is opened without following
links and must be a folder of this user's, and a file is read only if it is this user's regular file,
at most a bound's bytes of it: a link or someone else's file there is never read or written through.
A file is written to a temporary name and renamed over the old one, so a reader finds the old
document or the new one, never half of either. A document stamped later than now was written by a
clock gone wrong: stale. The cache only saves calls: whatever goes wrong reading or writing it is a
miss, never an error. Standard library only; the clock is the caller's.
"""
import json
import os
import stat
import time

from sagemaker_hetero import _defaults as D
from sagemaker_hetero._cost.prices import Price, is_region, usd
from sagemaker_hetero._model.instance_types import is_instance_type
from sagemaker_hetero.exceptions import logger

__all__ = ["Shelf", "PriceCache", "cache_root", "CACHED"]

LOGGER = logger()  # its records shown (exceptions.shown)
#: How a cached price names where it came from.
CACHED = "AWS Price List (cached)"
_PRICES = "prices"
_PRICE_BYTES = 1 << 16
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_FILE_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)  # a FIFO does not block


def cache_root(environ=None):
    """The folder of our cache: ``$XDG_CACHE_HOME/sagemaker-hetero``, else ``~/.cache/sagemaker-hetero``."""
    env = os.environ if environ is None else environ
    base = env.get("XDG_CACHE_HOME") or ""
    if not os.path.isabs(base):  # the XDG rule: a relative path is to be ignored
        base = os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, D.CACHE_FOLDER)


def _supported():
    return hasattr(os, "O_NOFOLLOW") and all(f in os.supports_dir_fd for f in (os.open, os.mkdir, os.rename, os.unlink))


def _plain(name):
    """Whether ``name`` is one plain file name of ours (no separator, not hidden like our temporary files)."""
    return isinstance(name, str) and bool(name) and not name.startswith(".") and "/" not in name \
        and os.sep not in name and "\0" not in name


def _mine(info):
    return info.st_uid == os.getuid()


class Shelf(object):
    """JSON documents (mappings) kept below ``root`` (default :func:`cache_root`) for ``lifetime``
    seconds, each file at most ``max_bytes`` long. A document's place is a tuple of names: the
    folders below ``root``, then the file's (``("prices", "us-west-2", "ml.c5.xlarge.json")``)."""

    def __init__(self, lifetime, max_bytes, root=None):
        self.lifetime = lifetime
        self.max_bytes = max_bytes
        self.root = root if root is not None else cache_root()

    def get(self, names, now):
        """The document at ``names`` (its stamp under ``"written"``) if it was written less than
        ``lifetime`` seconds before ``now``, and not after it; None otherwise, or if it cannot be read."""
        if not (_supported() and names and all(_plain(n) for n in names)):
            return None
        try:
            folder = self._open_folder(names[:-1], create=False)
        except OSError:
            return None
        try:
            document = json.loads(self._read(folder, names[-1]).decode("utf-8"))
        except Exception as exc:  # whatever the file holds (deep nesting: RecursionError), it is only a miss
            LOGGER.debug("The cache file %s cannot be read (%s): made again.", os.path.join(self.root, *names), exc)
            return None
        finally:
            os.close(folder)
        if not isinstance(document, dict):
            return None
        written = document.get("written")
        if isinstance(written, bool) or not isinstance(written, (int, float)):
            return None
        return document if now - self.lifetime < written <= now else None

    def put(self, names, document, now):
        """Keep ``document`` (a mapping of JSON values) at ``names``, stamped ``now``; True if it was written."""
        if not (_supported() and names and all(_plain(n) for n in names)):
            return False
        try:
            body = json.dumps(dict(document, written=now), sort_keys=True).encode("utf-8")
            folder = self._open_folder(names[:-1], create=True)
        except (OSError, TypeError, ValueError):
            return False
        temporary = ".%s.%s.tmp" % (names[-1], os.urandom(6).hex())
        try:
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
            with os.fdopen(os.open(temporary, flags, 0o600, dir_fd=folder), "wb") as handle:
                handle.write(body)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, names[-1], src_dir_fd=folder, dst_dir_fd=folder)  # a link there is replaced
            return True
        except OSError as exc:
            LOGGER.debug("The cache file %s cannot be written (%s).", os.path.join(self.root, *names), exc)
            try:
                os.unlink(temporary, dir_fd=folder)
            except OSError:
                pass
            return False
        finally:
            os.close(folder)

    def _open_folder(self, names, create):
        """A descriptor of ``root/names...``, each step below the root's parent opened without
        following links and checked to be this user's folder (made 0700 first, with ``create``)."""
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
                if not stat.S_ISDIR(info.st_mode) or not _mine(info):
                    raise OSError("not this user's folder: %s" % name)
            return fd
        except BaseException:
            os.close(fd)
            raise

    def _read(self, folder, name):
        """The bytes of this user's regular file ``name`` in ``folder``, if at most ``max_bytes``."""
        with os.fdopen(os.open(name, _FILE_FLAGS, dir_fd=folder), "rb") as handle:
            info = os.fstat(handle.fileno())
            if not stat.S_ISREG(info.st_mode) or not _mine(info):
                raise OSError("not this user's file")
            data = handle.read(self.max_bytes + 1)
        if len(data) > self.max_bytes:
            raise ValueError("longer than %d bytes" % self.max_bytes)
        return data


class PriceCache(object):
    """Prices kept in ``root`` (default :func:`cache_root`) for ``lifetime`` seconds by ``clock``."""

    def __init__(self, root=None, clock=time.time, lifetime=D.PRICE_CACHE_SECONDS):
        self.root = root if root is not None else cache_root()
        self.clock = clock
        self.lifetime = lifetime
        self._shelf = Shelf(lifetime, _PRICE_BYTES, self.root)

    def get(self, region, instance_type):
        """The cached :class:`Price` of ``instance_type`` in ``region``, or None (none, too old, unreadable)."""
        if not (is_region(region) and is_instance_type(instance_type)):
            return None
        found = self._shelf.get((_PRICES, region, instance_type + ".json"), self.clock())
        if found is None or found.get("region") != region or found.get("instance_type") != instance_type:
            return None
        if not isinstance(found.get("usd_per_hour"), str):  # as put() writes it
            return None
        try:
            amount = usd(found["usd_per_hour"])  # in the sane range, as put() keeps only such prices
        except ValueError:
            return None
        return Price(instance_type, region, amount, CACHED, _date(found["written"]))

    def put(self, price):
        """Keep ``price`` (read from the Price List now); True if it was written."""
        region, instance_type = price.region, price.instance_type
        if not (is_region(region) and is_instance_type(instance_type)):
            return False
        try:
            amount = usd(price.usd_per_hour)  # a price out of the sane range is never kept
        except ValueError:
            return False
        document = {"region": region, "instance_type": instance_type, "usd_per_hour": str(amount)}
        return self._shelf.put((_PRICES, region, instance_type + ".json"), document, self.clock())


def _date(epoch):
    return time.strftime("%Y-%m-%d", time.gmtime(epoch))
