#!/usr/bin/env python3
# Bytes of used_memory per HyperLogLog in redlab-server and redis-server, same run: 2,000 keys of
# 100 elements (sparse encoding) and of 5,000 (dense). Usage: bench/hll_memory.py build/bin/redlab-server
import sys

from server_memory import bytes_per_item, cmd


def pfadds(keys, elems):
    return b"".join(cmd("PFADD", "hll:%d" % k, *["e%d" % i for i in range(elems)])
                    for k in range(keys))


for elems in (100, 5000):
    data = pfadds(2000, elems)
    a = bytes_per_item(sys.argv[1], 17997, data, 2000)
    b = bytes_per_item("/usr/bin/redis-server", 17998, data, 2000)
    print("elements %d: redlab %.0f B, redis %.0f B, ratio %.2f" % (elems, a, b, a/b))
