#!/usr/bin/env python3
"""Writes a crafted .cbits archive (format 2) with valid checksums whose nine blocks each declare
two 24 MiB zstd sections of zeros: what `unpack` must refuse without allocating it all.

Usage: make_bomb_archive.py OUT.cbits   (needs the zstd command)
"""
import sys
import struct, zlib, subprocess
def varint(n):
    out=bytearray()
    while n>=0x80:
        out.append(n&0x7f|0x80); n>>=7
    out.append(n); return bytes(out)
raw = 24<<20
frame = subprocess.run(["zstd","-19","-c"],input=bytes(raw),capture_output=True).stdout
def payload():
    # two sections, comments (6) and text (10), each 24 MiB of zeros
    t = varint(2) + bytes([6,1]) + varint(raw) + varint(len(frame)) + bytes([10,1]) + varint(raw) + varint(len(frame))
    return t + frame + frame
header = b"\x89CBITS\r\n" + struct.pack("<H",2) + bytes([1,1])
header += struct.pack("<I", zlib.crc32(header))
out = bytearray(header)
index=[]
blocks=9
for b in range(blocks):
    p = payload()
    h = b"CBLK" + struct.pack("<IQII", len(p), b*1000, 1000, b) + bytes([1,0,0,0]) + struct.pack("<I", zlib.crc32(p))
    h += struct.pack("<I", zlib.crc32(h))
    index.append((len(out), b*1000, 1000))
    out += h + p
idx = b"CIDX" + struct.pack("<I", blocks) + b"".join(struct.pack("<QQI",*e) for e in index)
idx += struct.pack("<I", zlib.crc32(idx))
index_offset=len(out)
out += idx
foot = struct.pack("<QQI", index_offset, blocks*1000, blocks)
foot += struct.pack("<I", zlib.crc32(foot)) + b"CBITSEND"
out += foot
open(sys.argv[1], "wb").write(out)
print(len(out), "bytes, declares", blocks*2*raw>>20, "MiB")
