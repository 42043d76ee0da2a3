#!/usr/bin/env python3
"""Writes the scap_file_fuzzer seeds into corpus/scap_file_fuzzer/: small
.scap files laid out as libscap writes them (test/support/scap_writer.h
does the same in C++), each without its first four bytes, which the
fuzzer adds back."""
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
out_dir = os.path.join(here, "corpus", "scap_file_fuzzer")


def block(kind, body):
    pad = (-len(body)) % 4
    total = 12 + len(body) + pad
    return struct.pack("<II", kind, total) + body + b"\0" * pad + struct.pack("<I", total)


def s16(s):
    return struct.pack("<H", len(s)) + s


def event(kind, ts, tid, params, v2=True):
    header = 26 if v2 else 22
    lens = b"".join(struct.pack("<H", len(p)) for p in params)
    data = b"".join(params)
    ev = struct.pack("<QQIH", ts, tid, header + len(lens) + len(data), kind)
    if v2:
        ev += struct.pack("<I", len(params))
    return block(0x216 if v2 else 0x204, struct.pack("<H", 0) + ev + lens + data)


def i64(v):
    return struct.pack("<q", v)


def u32(v):
    return struct.pack("<I", v)


shb = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 2, -1))
mi = block(0x201, struct.pack("<IQQ", 2, 1 << 30, 32768) + b"host".ljust(128, b"\0") +
           struct.pack("<QQQQ", 1 << 60, 0, 0, 0))
entry = (struct.pack("<QQQQQ", 100, 100, 1, 100, 100) + s16(b"bash") + s16(b"bash") +
         s16(b"/usr/bin/bash") + s16(b"-l\0") + s16(b"/root/") +
         struct.pack("<QIII", 1024, 0, 0, 0) + struct.pack("<IIIQQ", 0, 0, 0, 0, 0) +
         s16(b"HOME=/\0") + struct.pack("<qq", 100, 100) + s16(b"cpu=/\0") + s16(b"/") +
         struct.pack("<QI", 0, 0) + struct.pack("<IB", 0, 0) + struct.pack("<QQQ", 0, 0, 0) +
         struct.pack("<BQQQBBq", 0, 0, 0, 0, 0, 0, 100))
pl = block(0x215, struct.pack("<I", len(entry) + 4) + entry)
fd_file = struct.pack("<qQB", 3, 7, 16) + u32(1) + s16(b"/etc/passwd") + u32(0)
fd_sock = struct.pack("<qQB", 4, 8, 3) + bytes([10, 0, 0, 1, 1, 1, 1, 1]) + struct.pack("<HHB", 4000, 443, 6)
fdl = block(0x218, struct.pack("<Q", 100) + struct.pack("<I", len(fd_file) + 4) + fd_file +
            struct.pack("<I", len(fd_sock) + 4) + fd_sock)
t = 1 << 60
events = (event(306, t, 100, [i64(-100), b"/etc/shadow\0", u32(1), u32(0)]) +
          event(307, t + 1, 100, [i64(5), i64(-100), b"/etc/shadow\0", u32(1), u32(0), u32(0),
                                  struct.pack("<Q", 9)]) +
          event(23, t + 2, 100, [i64(0), b"\x02" + bytes([10, 0, 0, 1]) + struct.pack("<H", 4000) +
                                 bytes([1, 1, 1, 1]) + struct.pack("<H", 80), i64(4),
                                 b"\x02\x01\x01\x01\x01" + struct.pack("<H", 80)]) +
          event(0, t + 3, 100, [struct.pack("<HH", 5, 39)]) + event(1, t + 4, 100, [struct.pack("<H", 5)]) +
          event(7, t + 5, 100, [i64(3), b"abc", i64(3), u32(3)], v2=False) +
          event(152, t + 6, 100, [i64(1)]) +
          event(186, t + 7, 100, [i64(0), i64(0), b"\0", b"\0", i64(0)]))
os.makedirs(out_dir, exist_ok=True)
seeds = {"full.scap": shb + mi + pl + fdl + events, "events-only.scap": shb + events,
         "snapshot-only.scap": shb + mi + pl + fdl}
for name, data in seeds.items():
    with open(os.path.join(out_dir, name), "wb") as f:
        f.write(data[4:])
