package dev.gantry.backend.batch.internal.render;

/**
 * The fixed program every task runs. It holds no user value: argv, the working directory and the workload's
 * variables arrive as {@code environmentSettings}, byte for byte, so Batch's own splitting of command lines never
 * touches them. It has no single quote (it sits inside one pair) and no backslash (whatever Batch makes of one inside
 * quotes, nothing here depends on it), and it is POSIX shell only (dash, busybox).
 *
 * <p>Its own shell variables are named {@code GANTRY_*}, which no workload variable may be: a plain {@code n} or
 * {@code f} could be one of the workload's variables, which an assignment would change under it.
 *
 * <p>What it does, in order: loads the secrets file Batch fetched into the task's directory (a resource file), if
 * there is one, and deletes it at once; rebuilds argv from {@code GANTRY_ARGC} and {@code GANTRY_ARG_<i>} (read with
 * {@code printenv}, with a guard so that trailing newlines survive command substitution) and removes those variables;
 * enters {@code GANTRY_WORKDIR}; sets the contract's per-node names (rank and master, from the coordination command
 * on a multi-node task, else rank 0 on the node itself); marks a rerun of the task as resuming
 * ({@code GANTRY_RESUME=1}, see {@link #RUN_MARKER_PREFIX}); checks that argv[0] exists, failing with 127 and the
 * manual backend's "command not found: PROGRAM"; then execs it.
 */
public final class Launcher {
    /** The number of arguments. */
    public static final String ARGC = "GANTRY_ARGC";
    /** The prefix of each argument's variable: {@code GANTRY_ARG_0} is the program. */
    public static final String ARG_PREFIX = "GANTRY_ARG_";
    /** The working directory, when the workload has one. */
    public static final String WORKDIR = "GANTRY_WORKDIR";
    /** The name of the secrets file in the task's directory (single node) or root directory (several nodes). */
    public static final String SECRETS_FILE = "gantry-secrets.env";
    /**
     * The start of the file a task's run leaves in the workload's checkpoint directory, named for the Batch job, the
     * task and the node's rank: a run that finds it is a rerun of that task (Batch requeued it after its Spot node
     * was preempted, or retried it), so it resumes. Batch gives a rerun no variable that says so, and its
     * environment is the one the task was added with; the checkpoint directory is the one place a rerun on another
     * node can find, and the only one where resuming means anything.
     */
    public static final String RUN_MARKER_PREFIX = ".gantry-started-";
    /** What the launcher exits with when it could not start the program for a reason of its own. */
    public static final int LAUNCH_FAILED = 125;

    /** The launcher's shell text (no quotes around it). */
    static final String BODY = String.join("\n",
            "for GANTRY_F in \"${AZ_BATCH_TASK_WORKING_DIR:-.}/" + SECRETS_FILE + "\" \"${AZ_BATCH_TASK_DIR:-.}/" + SECRETS_FILE + "\"; do",
            "  if [ -f \"$GANTRY_F\" ]; then",
            "    . \"$GANTRY_F\"; GANTRY_S=$?; rm -f \"$GANTRY_F\"",
            "    [ \"$GANTRY_S\" = 0 ] || { echo \"gantry: cannot load the secrets file $GANTRY_F\" >&2; exit " + LAUNCH_FAILED + "; }",
            "  fi",
            "done",
            "GANTRY_N=\"${GANTRY_ARGC:-}\"",
            "case \"$GANTRY_N\" in \"\"|*[!0-9]*) echo \"gantry: GANTRY_ARGC is not set to a number\" >&2; exit " + LAUNCH_FAILED + ";; esac",
            "set --",
            "GANTRY_I=0",
            "while [ \"$GANTRY_I\" -lt \"$GANTRY_N\" ]; do",
            "  GANTRY_V=$(printenv \"GANTRY_ARG_$GANTRY_I\" && echo .) || { echo \"gantry: GANTRY_ARG_$GANTRY_I is not set\" >&2; exit " + LAUNCH_FAILED + "; }",
            "  set -- \"$@\" \"${GANTRY_V%??}\"",
            "  unset \"GANTRY_ARG_$GANTRY_I\"",
            "  GANTRY_I=$((GANTRY_I + 1))",
            "done",
            "unset GANTRY_ARGC GANTRY_V GANTRY_N GANTRY_I GANTRY_F GANTRY_S",
            "if [ -n \"${GANTRY_WORKDIR:-}\" ]; then",
            "  cd \"$GANTRY_WORKDIR\" || { echo \"gantry: cannot enter the working directory $GANTRY_WORKDIR\" >&2; exit 1; }",
            "fi",
            "unset GANTRY_WORKDIR",
            "GANTRY_NODE_RANK=\"${GANTRY_NODE_RANK:-0}\"",
            "NODE_RANK=\"$GANTRY_NODE_RANK\"",
            "RANK=\"$GANTRY_NODE_RANK\"",
            "MASTER_ADDR=\"${MASTER_ADDR:-127.0.0.1}\"",
            "export GANTRY_NODE_RANK NODE_RANK RANK MASTER_ADDR",
            "if [ \"${GANTRY_RESUME:-0}\" = 0 ] && [ -n \"${GANTRY_CHECKPOINT_DIR:-}\" ] && [ -n \"${AZ_BATCH_TASK_ID:-}\" ]; then",
            "  GANTRY_RM=\"$GANTRY_CHECKPOINT_DIR/" + RUN_MARKER_PREFIX + "${AZ_BATCH_JOB_ID:-}-$AZ_BATCH_TASK_ID-$GANTRY_NODE_RANK\"",
            "  if [ -e \"$GANTRY_RM\" ]; then",
            "    GANTRY_RESUME=1; export GANTRY_RESUME",
            "  else",
            "    { mkdir -p \"$GANTRY_CHECKPOINT_DIR\" && : >\"$GANTRY_RM\"; } 2>/dev/null || :",
            "  fi",
            "  unset GANTRY_RM",
            "fi",
            "case \"$1\" in",
            "  */*) [ -e \"$1\" ];;",
            "  *) command -v -- \"$1\" >/dev/null 2>&1;;",
            "esac || { printf \"%s\" \"gantry: command not found: $1\" >&2; echo >&2; exit 127; }",
            "exec \"$@\"");

    /** The task's command line: the launcher under {@code /bin/sh -c}. */
    public static final String COMMAND_LINE = "/bin/sh -c '" + BODY + "'";

    private Launcher() {
    }
}
