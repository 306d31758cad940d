"""The train step: fits a small linear classifier with plain Python (no packages) and saves it as JSON.

The model goes to a file of its own under the system's temporary directory (shared with the serve step when both
run on one machine; on a cluster, point MODEL_DIR at storage every node sees). Its path is published to the next
step by writing MODEL_PATH=... to the file Gantry names in $GANTRY_OUTPUTS.
"""
import json
import math
import os
import random
import sys
import tempfile


def sigmoid(z):
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def main():
    seed = int(os.environ.get("SEED", "11"))
    epochs = int(os.environ.get("EPOCHS", "4"))
    rng = random.Random(seed)
    true_w = [rng.uniform(-2, 2) for _ in range(4)]
    rows = []
    for _ in range(1000):
        x = [rng.gauss(0, 1) for _ in range(4)]
        rows.append((x, 1.0 if sum(w * v for w, v in zip(true_w, x)) > 0 else 0.0))

    weights, bias = [0.0] * 4, 0.0
    for epoch in range(1, epochs + 1):
        for x, y in rows:
            error = sigmoid(sum(w * v for w, v in zip(weights, x)) + bias) - y
            weights = [w - 0.05 * error * v for w, v in zip(weights, x)]
            bias -= 0.05 * error
        correct = sum((sigmoid(sum(w * v for w, v in zip(weights, x)) + bias) >= 0.5) == (y == 1.0) for x, y in rows)
        print(f"epoch {epoch}/{epochs}  accuracy {correct / len(rows):.3f}", flush=True)

    job = os.environ.get("GANTRY_JOB_ID", "local")
    model_dir = os.environ.get("MODEL_DIR") or os.path.join(tempfile.gettempdir(), "gantry-train-and-serve")
    os.makedirs(model_dir, exist_ok=True)
    path = os.path.join(model_dir, f"{job}.json")
    with open(path + ".tmp", "w") as f:
        json.dump({"weights": weights, "bias": bias}, f)
    os.replace(path + ".tmp", path)
    print(f"saved the model to {path}", flush=True)

    outputs = os.environ.get("GANTRY_OUTPUTS")
    if not outputs:
        sys.exit("GANTRY_OUTPUTS is not set: run this step through Gantry, whose workflow declares outputs: [MODEL_PATH]")
    with open(outputs, "a") as f:
        f.write(f"MODEL_PATH={path}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
