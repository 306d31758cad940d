"""Quickstart workload: trains a logistic-regression classifier with plain Python (no packages needed).

It generates a linearly separable data set from SEED, runs mini-batch gradient descent for --epochs epochs,
prints the loss and accuracy of each epoch, and writes a checkpoint after each one so that a preempted run resumes
where it stopped (Gantry exports GANTRY_CHECKPOINT_DIR when the spec declares a checkpoint).
"""
import argparse
import json
import math
import os
import random
import sys


def make_data(seed, n=2000, features=8):
    rng = random.Random(seed)
    true_w = [rng.uniform(-2, 2) for _ in range(features)]
    rows = []
    for _ in range(n):
        x = [rng.gauss(0, 1) for _ in range(features)]
        margin = sum(w * v for w, v in zip(true_w, x))
        rows.append((x, 1.0 if margin + rng.gauss(0, 0.5) > 0 else 0.0))
    return rows


def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def evaluate(weights, bias, rows):
    loss, correct = 0.0, 0
    for x, y in rows:
        p = sigmoid(sum(w * v for w, v in zip(weights, x)) + bias)
        loss -= y * math.log(p + 1e-12) + (1 - y) * math.log(1 - p + 1e-12)
        correct += (p >= 0.5) == (y == 1.0)
    return loss / len(rows), correct / len(rows)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--epochs", type=int, default=5)
    parser.add_argument("--checkpoint-dir", default=os.environ.get("GANTRY_CHECKPOINT_DIR", "checkpoints"))
    args = parser.parse_args()

    seed = int(os.environ.get("SEED", "7"))
    rows = make_data(seed)
    features = len(rows[0][0])
    weights, bias, start = [0.0] * features, 0.0, 0

    os.makedirs(args.checkpoint_dir, exist_ok=True)
    checkpoint = os.path.join(args.checkpoint_dir, "quickstart.json")
    if os.path.exists(checkpoint):
        with open(checkpoint) as f:
            state = json.load(f)
        if state.get("seed") == seed and state.get("epoch", 0) < args.epochs:
            weights, bias, start = state["weights"], state["bias"], state["epoch"]
            print(f"resuming from checkpoint at epoch {start}", flush=True)

    rng = random.Random(seed + 1)
    rate = 0.1
    for epoch in range(start, args.epochs):
        rng.shuffle(rows)
        for i in range(0, len(rows), 32):
            batch = rows[i:i + 32]
            grad_w, grad_b = [0.0] * features, 0.0
            for x, y in batch:
                error = sigmoid(sum(w * v for w, v in zip(weights, x)) + bias) - y
                for j in range(features):
                    grad_w[j] += error * x[j]
                grad_b += error
            weights = [w - rate * g / len(batch) for w, g in zip(weights, grad_w)]
            bias -= rate * grad_b / len(batch)
        loss, accuracy = evaluate(weights, bias, rows)
        print(f"epoch {epoch + 1}/{args.epochs}  loss {loss:.4f}  accuracy {accuracy:.3f}", flush=True)
        tmp = checkpoint + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"seed": seed, "epoch": epoch + 1, "weights": weights, "bias": bias}, f)
        os.replace(tmp, checkpoint)

    loss, accuracy = evaluate(weights, bias, rows)
    print(f"done: accuracy {accuracy:.3f}", flush=True)
    return 0 if accuracy > 0.8 else 1


if __name__ == "__main__":
    sys.exit(main())
