"""CPU hosts stream preprocessed data over TCP to the GPU host, which trains, then tells them to stop.

The heterogeneous pattern: the data group (CPU instances) prepares records and serves them over the
network; the trainer group (GPU instances) pulls them every epoch. Every host runs this script:

- ``data_group``: read this host's shard of the ``train`` channel (``ShardedByS3Key``: each data
  host gets its own files), scale the feature, serve the records on port 9100 to whoever connects,
  and exit once every trainer said it is done (``wait_for_group``). Without that signal the job
  would never end: SageMaker waits for every host's process.
- ``dnn_group``: each epoch, connect to every data host *by name* (``algo-N``), read its records,
  fit ``y = w * x + b`` by stochastic gradient descent; save the model, then ``signal_done``.

Standard library plus ``sagemaker_hetero.training`` (put ``sagemaker-hetero`` in a
``requirements.txt`` next to this file for a real SageMaker job).
"""
import argparse
import json
import os
import random
import socket
import sys
import threading
import time

from sagemaker_hetero.training import Environment, run_by_group, signal_done, wait_for_group

DATA_PORT = 9100
SCALE = 10.0  # the "preprocessing": features scaled to about [0, 1]


def read_shard(env):
    records = []
    folder = env.channel_input_dirs["train"]
    for parent, _, names in os.walk(folder, followlinks=True):
        for name in sorted(names):
            with open(os.path.join(parent, name)) as handle:
                for line in handle:
                    fields = line.strip().split(",")
                    if len(fields) == 2 and fields[0][:1].isdigit():
                        records.append((float(fields[0]) / SCALE, float(fields[1])))
    return records


def serve(env, args):
    records = read_shard(env)
    payload = "".join("%r,%r\n" % r for r in records).encode("ascii")
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("", DATA_PORT))  # every interface; on a local host: that host's own address
    listener.listen(16)

    def accept_forever():
        while True:
            conn, _ = listener.accept()
            with conn:
                conn.sendall(payload)

    threading.Thread(target=accept_forever, daemon=True).start()
    print("serving %d records on port %d" % (len(records), DATA_PORT))
    trainers = wait_for_group(env, args.train_group, timeout=args.timeout)
    print("trainers %s are done; stopping" % ", ".join(trainers))


def fetch(host, timeout):
    """Every record ``host`` serves; retried while its server is not up yet."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            conn = socket.create_connection((host, DATA_PORT), timeout=5)
            break
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)
    chunks = []
    with conn:
        while True:
            chunk = conn.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return [tuple(float(v) for v in line.split(",")) for line in b"".join(chunks).decode("ascii").split()]


def train(env, args):
    data_hosts = env.instance_group_hosts(args.data_group)
    rng = random.Random(0)
    w = b = 0.0
    for epoch in range(1, args.epochs + 1):
        records = []
        for host in data_hosts:
            records.extend(fetch(host, args.timeout))
        rng.shuffle(records)
        for x, y in records:
            error = (w * x + b) - y
            w -= args.lr * error * x
            b -= args.lr * error
        loss = sum(((w * x + b) - y) ** 2 for x, y in records) / len(records)
        if epoch == 1 or epoch % 10 == 0 or epoch == args.epochs:
            print("epoch %d: %d records from %s, mse %.4f" % (epoch, len(records), ", ".join(data_hosts), loss))
    model = {"w": w / SCALE, "b": b, "records": len(records)}
    os.makedirs(env.model_dir, exist_ok=True)
    with open(os.path.join(env.model_dir, "model.json"), "w") as handle:
        json.dump(model, handle)
    print("model: y = %.3f * x + %.3f" % (model["w"], model["b"]))
    signal_done(env, to=args.data_group, timeout=args.timeout)


def main(argv=None):
    parser = argparse.ArgumentParser(allow_abbrev=False)
    parser.add_argument("--data_group", default="data_group")
    parser.add_argument("--train_group", default="dnn_group")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--timeout", type=float, default=120.0)
    args, _ = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    env = Environment()
    run_by_group({args.data_group: lambda e: serve(e, args), args.train_group: lambda e: train(e, args)}, env)


if __name__ == "__main__":
    main()
