package dev.gantry.backend.batch.internal.render;

/**
 * The two command lines of a multi-node task (a Batch multi-instance task), POSIX shell only and with no user value.
 *
 * <p>Batch runs the coordination command on every node, the primary's included, and the primary's application
 * command once all of them have returned; a subtask that exits non-zero fails the whole task (MultiInstanceSettings'
 * remarks). So: on the master node the coordination command starts rank 0 in the background and returns at once; on
 * every other node it runs that node's rank to its end and exits with the rank's exit code, which is how a failing
 * rank fails the task (its subtask names the node) and why the task is not over before its last rank is. Then the
 * application command, on the primary, waits for rank 0 and ends with its exit code. Each rank's output goes to
 * {@code rank-N.stdout} and {@code rank-N.stderr} in {@code AZ_BATCH_TASK_SHARED_DIR}, and its exit code to
 * {@code rank-N.exit} (written whole, by a rename); a failing rank says which it was on its stderr.
 *
 * <p>Ranks: 0 on the master ({@code AZ_BATCH_IS_CURRENT_NODE_MASTER}); the others by the position of the node's
 * address in {@code AZ_BATCH_HOST_LIST}, the master's left out, from 1. A node knows its addresses from
 * {@code hostname -I} (or {@code hostname -i}, the addresses its name resolves to, where only that exists: busybox). {@code MASTER_ADDR} is the address part of
 * {@code AZ_BATCH_MASTER_NODE}.
 */
public final class CoordinationCommand {
    /** What the coordination command exits with when it cannot place its node among the ranks. */
    public static final int NO_RANK = 125;

    static final String COORDINATION_BODY = String.join("\n",
            "GANTRY_D=\"${AZ_BATCH_TASK_SHARED_DIR:?}\"",
            "GANTRY_M=\"${AZ_BATCH_MASTER_NODE:?}\"",
            "GANTRY_M=\"${GANTRY_M%:*}\"",
            "if [ \"${AZ_BATCH_IS_CURRENT_NODE_MASTER:-false}\" = true ]; then",
            "  GANTRY_R=0",
            "else",
            "  GANTRY_SELF=\" $(hostname -I 2>/dev/null || hostname -i 2>/dev/null) \"",
            "  GANTRY_R=",
            "  GANTRY_K=1",
            "  for GANTRY_H in $(echo \"${AZ_BATCH_HOST_LIST:?}\" | tr , \" \"); do",
            "    [ \"$GANTRY_H\" = \"$GANTRY_M\" ] && continue",
            "    case \"$GANTRY_SELF\" in *\" $GANTRY_H \"*) GANTRY_R=$GANTRY_K;; esac",
            "    GANTRY_K=$((GANTRY_K + 1))",
            "  done",
            "  [ -n \"$GANTRY_R\" ] || { echo \"gantry: no address of this node ($GANTRY_SELF) is in AZ_BATCH_HOST_LIST\" >&2; exit " + NO_RANK + "; }",
            "fi",
            "gantry_rank() {",
            "  ( " + Launcher.BODY.replace("\n", "\n  "),
            "  ) < /dev/null > \"$GANTRY_D/rank-$GANTRY_R.stdout\" 2> \"$GANTRY_D/rank-$GANTRY_R.stderr\"",
            "  GANTRY_C=$?",
            "  echo \"$GANTRY_C\" > \"$GANTRY_D/rank-$GANTRY_R.exit.part\" && mv \"$GANTRY_D/rank-$GANTRY_R.exit.part\" \"$GANTRY_D/rank-$GANTRY_R.exit\"",
            "  [ \"$GANTRY_C\" = 0 ] || echo \"gantry: rank $GANTRY_R exited with code $GANTRY_C\" >> \"$GANTRY_D/rank-$GANTRY_R.stderr\"",
            "  return \"$GANTRY_C\"",
            "}",
            "GANTRY_NODE_RANK=\"$GANTRY_R\"",
            "MASTER_ADDR=\"$GANTRY_M\"",
            "export GANTRY_NODE_RANK MASTER_ADDR",
            "if [ \"$GANTRY_R\" = 0 ]; then",
            "  gantry_rank < /dev/null > /dev/null 2>&1 &",
            "  exit 0",
            "fi",
            "gantry_rank",
            "GANTRY_C=$?",
            "[ \"$GANTRY_C\" = 0 ] || echo \"gantry: rank $GANTRY_R exited with code $GANTRY_C\" >&2",
            "exit \"$GANTRY_C\"");

    static final String APPLICATION_BODY = String.join("\n",
            "GANTRY_D=\"${AZ_BATCH_TASK_SHARED_DIR:?}\"",
            "while [ ! -s \"$GANTRY_D/rank-0.exit\" ]; do sleep 1; done",
            "GANTRY_C=$(cat \"$GANTRY_D/rank-0.exit\")",
            "[ \"$GANTRY_C\" = 0 ] || echo \"gantry: rank 0 exited with code $GANTRY_C\" >&2",
            "exit \"$GANTRY_C\"");

    /** {@code multiInstanceSettings.coordinationCommandLine}. */
    public static final String COORDINATION_LINE = "/bin/sh -c '" + COORDINATION_BODY + "'";
    /** The primary's {@code commandLine} on a multi-node task. */
    public static final String APPLICATION_LINE = "/bin/sh -c '" + APPLICATION_BODY + "'";

    private CoordinationCommand() {
    }
}
