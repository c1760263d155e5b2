"""One host's output cut into labelled records for the session's stream (pure: bytes in, text out).

A host's stdout and stderr (one pipe) arrive in chunks of any size. A line (ended by ``\\n``;
``\\r\\n`` counts as one end) is written ``<label><line>\\n``. A line redrawn with carriage returns
(a progress bar: tqdm redraws in place with ``\\r``) is cut there too: each non-empty update before
a ``\\r`` is written ``<label><update>\\r``, so a terminal draws the labelled bar in place as it
draws the host's own and a file keeps every update, and the line's last non-empty piece ends it
with ``\\n``. An update shows once the ``\\r`` after it arrives; a chunk's last ``\\r`` waits for the
next byte, which may make it ``\\r\\n``.

Only the piece after the last ``\\r``/``\\n`` is held (a ``bytearray`` appended to, copied once
when its line or update ends): a piece that reaches ``LINE_LIMIT`` (64 KiB) without either is
written as a line of its own, cut at a UTF-8 character boundary, and what follows it goes on as
further lines. So the work is linear in what the host prints, what is held stays under
``LINE_LIMIT`` plus one chunk, and nothing reaches the stream changed but for the label and line
ends: only empty updates (a ``\\r`` after a ``\\r`` or at a line's start) are dropped.

``lines``: the host's last ``LAST_LINES`` lines as a terminal leaves them (a line's last non-empty
piece; the last update of a bar the host never ended), for the error of a failing host.
"""
import collections

__all__ = ["HostOutput", "LAST_LINES", "LINE_LIMIT"]

LAST_LINES = 20
LINE_LIMIT = 64 * 1024


class HostOutput(object):
    """The output of the host labelled ``label`` (``"[<group>/<host>] "``), fed chunk by chunk."""

    def __init__(self, label, limit=LINE_LIMIT):
        self.label = label
        self.lines = collections.deque(maxlen=LAST_LINES)
        self._label = label.encode("utf-8")
        self._limit = limit
        self._held = bytearray()
        self._update = None  # the last update written since the last line, bytes

    @property
    def held(self):
        """How many bytes are held, waiting for the end of their line or update."""
        return len(self._held)

    def feed(self, chunk):
        """The text to write for ``chunk`` (``""`` while nothing is complete); it ends with ``\\r``
        when its last record is an update the next record may draw over."""
        out = b""
        if self._held.endswith(b"\r") and chunk and not chunk.startswith(b"\n"):
            out, self._held = self._records(bytes(self._held)), bytearray()  # its last \r ends an update
        end = len(chunk) - 1 if chunk.endswith(b"\r") else len(chunk)
        cut = max(chunk.rfind(b"\n", 0, end), chunk.rfind(b"\r", 0, end))
        if cut < 0:
            self._held += chunk
        else:
            done = bytes(self._held) + chunk[: cut + 1]
            self._held = bytearray(chunk[cut + 1 :])
            out += self._records(done)
        return (out + self._overflow()).decode("utf-8", "replace")

    def end(self):
        """The text for what is still held once the host's output ended (its last line, unended)."""
        held, self._held = bytes(self._held), bytearray()
        if held.strip(b"\r"):
            return self._records(held + b"\n").decode("utf-8", "replace")
        if self._update is not None:  # a bar left as last drawn: the terminal shows it
            self.lines.append(self._update.decode("utf-8", "replace"))
            self._update = None
        return ""

    def _records(self, done):
        """The labelled records of ``done``, which ends with ``\\n`` or ``\\r``."""
        label = self._label
        data = done.replace(b"\r\n", b"\n")
        parts = data.split(b"\n")
        tail = parts.pop()  # after the last \n: updates each ended by \r, or nothing
        out = b""
        if parts:
            if data.find(b"\r", 0, len(data) - len(tail)) >= 0:
                parts = [[s for s in p.split(b"\r") if s] or [b""] for p in parts]
                out = b"".join(label + (b"\r" + label).join(p) + b"\n" for p in parts)
                shown = [p[-1] for p in parts[-LAST_LINES:]]
            else:
                out = label + (b"\n" + label).join(parts) + b"\n"
                shown = parts[-LAST_LINES:]
            self.lines.extend(s.decode("utf-8", "replace") for s in shown)
            self._update = None
        updates = [s for s in tail.split(b"\r") if s]
        if updates:
            out += label + (b"\r" + label).join(updates) + b"\r"
            self._update = updates[-1]
        return out

    def _overflow(self):
        """The held piece's first ``limit`` bytes as lines while it is that long (its pending ``\\r`` aside)."""
        out = []
        held = self._held
        while len(held) - held.endswith(b"\r") >= self._limit:
            cut = _boundary(held, self._limit)
            piece = bytes(held[:cut])
            del held[:cut]
            out.append(self._label + piece + b"\n")
            self.lines.append(piece.decode("utf-8", "replace"))
            self._update = None
        return b"".join(out)


def _continues(byte):
    return byte & 0xC0 == 0x80  # a UTF-8 continuation byte


def _boundary(held, limit):
    """Where to cut ``held`` at most ``limit`` bytes in: not inside a UTF-8 character (if it is UTF-8)."""
    cut = limit
    while cut < len(held) and cut > limit - 3 and _continues(held[cut]):
        cut -= 1
    return limit if cut < len(held) and _continues(held[cut]) else cut
