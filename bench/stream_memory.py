#!/usr/bin/env python3
# Bytes of used_memory per stream entry in redlab-server and redis-server, same run: 100,000
# XADDs of a small entry (one field, one value) with `*` IDs, then of a three-field entry with
# explicit IDs. Usage: bench/stream_memory.py build/bin/redlab-server [entries]
import sys

from server_memory import bytes_per_item, cmd

n = int(sys.argv[2]) if len(sys.argv) > 2 else 100000
shapes = {
    "XADD s * field value": b"".join(cmd("XADD","s","*","field","value") for _ in range(n)),
    "XADD s <i>-1 name user<i> n <i> at 2026": b"".join(
        cmd("XADD","s","%d-1" % (i+1),"name","user%d" % i,"n",i,"at",2026) for i in range(n)),
}
for name, data in shapes.items():
    a = bytes_per_item(sys.argv[1], 17995, data, n)
    b = bytes_per_item("/usr/bin/redis-server", 17996, data, n)
    print("%s: redlab %.1f B, redis %.1f B per entry, ratio %.2f" % (name, a, b, a/b))
