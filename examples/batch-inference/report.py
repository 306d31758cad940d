"""The fan-in after the fan-out: reads every shard's predictions and prints the totals; fails, naming the shard, if
one is missing (a report never counts a partial batch)."""
import json
import os
import sys

import results


def main():
    shards = int(os.environ.get("SHARDS", "4"))
    directory = results.directory()
    totals, images = {}, 0
    for shard in range(shards):
        path = os.path.join(directory, f"shard-{shard}.json")
        if not os.path.exists(path):
            sys.exit(f"shard {shard} wrote no predictions ({path} is missing)")
        with open(path) as f:
            for p in json.load(f):
                totals[p["class"]] = totals.get(p["class"], 0) + 1
                images += 1
    print(f"{images} images in {shards} shards: " + ", ".join(f"{c} {n}" for c, n in sorted(totals.items())),
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
