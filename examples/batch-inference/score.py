"""One shard of the batch: scores IMAGES_PER_SHARD synthetic 12x12 images with a small convolutional classifier
(3x3 convolutions, ReLU, max pooling, a dense layer and softmax over 3 classes), in plain Python. The weights are
fixed by a seed, standing in for a trained model you would load from storage; the images are drawn from the shard's
number, so every attempt of a shard scores the same images and writes the same predictions (an evicted shard simply
runs again). Predictions go to results.directory()/shard-N.json, written atomically.
"""
import json
import math
import os
import random
import sys

import results

SIZE, FILTERS, CLASSES = 12, 4, ("cat", "dog", "bird")


def convolve(image, kernel):
    out = []
    for i in range(SIZE - 2):
        out.append([max(0.0, sum(kernel[a][b] * image[i + a][j + b] for a in range(3) for b in range(3)))
                    for j in range(SIZE - 2)])
    return out


def pool(feature):
    n = len(feature) // 2
    return [max(feature[2 * i + a][2 * j + b] for a in range(2) for b in range(2)) for i in range(n) for j in range(n)]


def main():
    shard, shards = int(os.environ["SHARD"]), int(os.environ.get("SHARDS", "4"))
    count = int(os.environ.get("IMAGES_PER_SHARD", "64"))
    model = random.Random(2026)
    kernels = [[[model.gauss(0, 0.5) for _ in range(3)] for _ in range(3)] for _ in range(FILTERS)]
    features = FILTERS * ((SIZE - 2) // 2) ** 2
    dense = [[model.gauss(0, 0.1) for _ in range(features)] for _ in CLASSES]

    data = random.Random(shard)
    tally = {c: 0 for c in CLASSES}
    predictions = []
    for n in range(count):
        image = [[data.random() for _ in range(SIZE)] for _ in range(SIZE)]
        x = [v for kernel in kernels for v in pool(convolve(image, kernel))]
        logits = [sum(w * v for w, v in zip(row, x)) for row in dense]
        top = max(logits)
        exps = [math.exp(z - top) for z in logits]
        best = max(range(len(CLASSES)), key=lambda k: exps[k])
        predictions.append({"image": shard * count + n, "class": CLASSES[best], "p": round(exps[best] / sum(exps), 3)})
        tally[CLASSES[best]] += 1

    path = os.path.join(results.directory(), f"shard-{shard}.json")
    with open(path + ".tmp", "w") as f:
        json.dump(predictions, f)
    os.replace(path + ".tmp", path)
    print(f"shard {shard + 1} of {shards}: scored {count} images "
          f"({', '.join(f'{c} {k}' for c, k in tally.items())}) on attempt {os.environ.get('GANTRY_ATTEMPT', '1')}",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
