"""A stand-in for fine-tuning a generative model, small enough for any machine: a character bigram language model
trained with plain Python on a short text. It does what a real fine-tune must do to run on Spot capacity:

- saves a checkpoint to $GANTRY_CHECKPOINT_DIR after every epoch, atomically (a new file renamed over the old one);
- on SIGTERM (what Gantry sends when the VM is evicted) stops at once: the last checkpoint is complete;
- when $GANTRY_RESUME is 1, loads the checkpoint and continues at the next epoch.

On this machine there is no Azure metadata service, so each attempt starts a stand-in for it (events_standin.py);
attempt 1, after epoch EVICT_AFTER_EPOCH is saved, asks it to announce a Preempt event for this VM, as Azure does about 30
seconds before it takes a Spot VM back. Gantry's manual backend (configured by gantry.yaml beside this file) finds
the event on its next status poll and evicts the job; the workflow then runs attempt 2, which resumes.
"""
import json
import math
import os
import signal
import sys
import time

import events_standin

TEXT = ("the model learns the next character from the one before it. "
        "fine tuning continues from the weights of a model trained before. ") * 4


def train_epoch(counts):
    for a, b in zip(TEXT, TEXT[1:]):
        counts.setdefault(a, {})
        counts[a][b] = counts[a].get(b, 0) + 1
    time.sleep(0.5)  # a real epoch takes hours; this one long enough for the eviction to land between two


def perplexity(counts):
    vocabulary = len(set(TEXT))
    log_likelihood = 0.0
    for a, b in zip(TEXT, TEXT[1:]):
        row = counts.get(a, {})
        log_likelihood += math.log((row.get(b, 0) + 1) / (sum(row.values()) + vocabulary))
    return math.exp(-log_likelihood / (len(TEXT) - 1))


def evicted(attempt):
    print(f"SIGTERM on attempt {attempt}: evicted; the last checkpoint is complete", flush=True)
    sys.exit(143)


def main():
    epochs = int(os.environ.get("EPOCHS", "6"))
    attempt = int(os.environ.get("GANTRY_ATTEMPT", "1"))
    checkpoint_dir = os.environ["GANTRY_CHECKPOINT_DIR"]
    path = os.path.join(checkpoint_dir, "finetune.json")
    os.makedirs(checkpoint_dir, exist_ok=True)
    signal.signal(signal.SIGTERM, lambda *_: evicted(attempt))

    counts, start = {}, 1
    if os.environ.get("GANTRY_RESUME") == "1" and os.path.exists(path):
        with open(path) as f:
            state = json.load(f)
        counts, start = state["counts"], state["epoch"] + 1
        print(f"attempt {attempt}: resuming at epoch {start} from the checkpoint of epoch {state['epoch']}",
              flush=True)
    else:
        print(f"attempt {attempt}: starting at epoch 1", flush=True)

    standin = events_standin.start()  # every attempt: the VM's metadata service is always there on Azure
    for epoch in range(start, epochs + 1):
        train_epoch(counts)
        with open(path + ".tmp", "w") as f:
            json.dump({"epoch": epoch, "counts": counts}, f)
        os.replace(path + ".tmp", path)
        print(f"epoch {epoch}/{epochs}  perplexity {perplexity(counts):.2f}  checkpoint saved", flush=True)
        if attempt == 1 and epoch == int(os.environ.get("EVICT_AFTER_EPOCH", "2")):
            # Printed first: from the moment the event is served, Gantry's next poll may stop this process.
            print("the stand-in metadata service now announces a Preempt event for this VM", flush=True)
            standin.preempt()
            while True:  # Gantry's next status poll sees the event and sends SIGTERM
                time.sleep(0.2)
    print(f"fine-tuned {epochs} epochs", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
