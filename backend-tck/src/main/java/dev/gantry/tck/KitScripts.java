package dev.gantry.tck;

import dev.gantry.api.backend.JobEnvironment;
import java.util.ArrayList;
import java.util.List;

/**
 * The shell programs the kit's v2 cases run, written for any POSIX shell with either python3 or a netcat that takes
 * {@code -l -p PORT} (busybox's): the hosts of one environment may be full Linux machines or minimal container
 * images.
 */
final class KitScripts {
    /** What each rank prints first: the contract as it saw it, one line. */
    static final String CONTRACT_LINE = "contract";

    private KitScripts() {
    }

    /**
     * A two-node rendezvous: each rank prints the contract line, then rank 0 listens at {@code MASTER_PORT} and
     * prints {@code received: <what rank 1 sent>}, while rank 1 connects to {@code MASTER_ADDR:MASTER_PORT} (retrying
     * until rank 0 listens) and sends {@code hello from rank 1 of 2}.
     */
    static List<String> rendezvous() {
        String script = """
                echo "contract rank=$RANK node_rank=$NODE_RANK gantry_node_rank=$GANTRY_NODE_RANK \\
                world=$WORLD_SIZE nodes=$GANTRY_NUM_NODES local_rank=$LOCAL_RANK master=$MASTER_ADDR:$MASTER_PORT"
                message="hello from rank $NODE_RANK of $WORLD_SIZE"
                if command -v python3 >/dev/null 2>&1; then
                  exec python3 -c '
                import os, socket, sys, time
                port = int(os.environ["MASTER_PORT"])
                if os.environ["NODE_RANK"] == "0":
                    server = socket.socket()
                    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                    server.bind(("", port))
                    server.listen(1)
                    server.settimeout(60)
                    peer, _ = server.accept()
                    data = b""
                    while not data.endswith(b"\\n"):
                        chunk = peer.recv(256)
                        if not chunk:
                            break
                        data += chunk
                    print("received: " + data.decode().strip(), flush=True)
                else:
                    deadline = time.time() + 60
                    while True:
                        try:
                            with socket.create_connection((os.environ["MASTER_ADDR"], port), timeout=2) as peer:
                                peer.sendall((sys.argv[1] + "\\n").encode())
                            break
                        except OSError as e:
                            if time.time() > deadline:
                                sys.exit("cannot reach the master: %s" % e)
                            time.sleep(0.1)
                ' "$message"
                fi
                if [ "$NODE_RANK" = 0 ]; then
                  echo "received: $(nc -l -p "$MASTER_PORT")"
                else
                  i=0
                  while [ $i -lt 300 ]; do
                    # Refused until rank 0 listens: those tries are expected, so their complaints are not shown.
                    # The message is on nc's input before nc connects (a here-document, not a pipe from echo):
                    # BusyBox nc -l, its own input at end, shuts its side at once, and a client that had not read
                    # its input yet took that for the end and sent nothing.
                    nc "$MASTER_ADDR" "$MASTER_PORT" 2>/dev/null <<EOF && exit 0
                $message
                EOF
                    i=$((i + 1)); sleep 0.2
                  done
                  echo "cannot reach the master at $MASTER_ADDR:$MASTER_PORT" >&2; exit 1
                fi
                """;
        return List.of("sh", "-c", script);
    }

    /**
     * Prints {@code NAME=value} for every name of the job-environment contract, {@code NAME} alone when the variable
     * is not set (so that an empty value and an unset one differ).
     */
    static List<String> printContract() {
        String script = """
                for n in "$@"; do
                  if eval "[ -n \\"\\${$n+set}\\" ]"; then eval "printf '%s=%s\\n' \\"\\$n\\" \\"\\$$n\\""
                  else printf '%s\\n' "$n"; fi
                done
                """;
        List<String> argv = new ArrayList<>(List.of("sh", "-c", script, "sh"));
        argv.addAll(JobEnvironment.NAMES);
        return argv;
    }
}
