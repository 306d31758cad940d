package dev.gantry.hosts.jobs;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.Host;
import dev.gantry.hosts.events.MetadataQuery;
import dev.gantry.ssh.RemoteResult;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Every job directory of one host read by one remote command: a fixed script prints one tab-separated line per
 * {@code job-*} directory with the files status needs and whether the job's process is alive, using shell builtins
 * only (no process per file), so a poll of a thousand jobs is one command and one round trip per host.
 *
 * <p>Alive means: {@code /proc/PID} exists, is not a zombie and its command line names this job's directory (the
 * wrapper's {@code $1}), so a process that reused the id is not taken for the job. While a process execs (the job's
 * launch execs twice after its pid is recorded) or exits, the kernel shows no command line for a moment: then a
 * process that leads its own session, as the job does and a reused id almost never does, is taken for the job.
 */
public final class HostScan {
    /**
     * Arguments: the work directory; a job id to claim under {@code .claims/} first, or empty; a job id for a
     * submit's scan, or empty. A submit's scan reports that job whole and, of the others, only those that have not
     * ended (what placement counts), and it takes a process that is not a zombie for alive without reading its
     * command line: one look at each ended job instead of ten, no process started per running one. Fields: id,
     * launched, pid, started, ended, exit, cancelled (time or -), preempted (time or -), alive, placement line,
     * eviction reason (last: it is free text and may hold tabs).
     */
    public static final String SCRIPT = """
            if [ -n "$2" ]; then
              c="$1/.claims/$2"
              [ -d "$1/.claims" ] || mkdir -p -- "$1/.claims" 2>/dev/null
              if mkdir -- "$c" 2>/dev/null; then echo "C\tmine"
              elif [ -n "$(find "$c" -maxdepth 0 -mmin +1 2>/dev/null)" ] && rmdir -- "$c" 2>/dev/null \
                  && mkdir -- "$c" 2>/dev/null; then echo "C\tmine"
              else echo "C\ttaken"
              fi
              # Claims are write-once and outlive their submit; a day later nobody waits on them. Swept now and
              # then, not by every submit.
              [ $(($$ % 32)) = 0 ] && find "$1/.claims" -mindepth 1 -maxdepth 1 -mmin +1440 -exec rmdir -- {} + \
                2>/dev/null
            fi
            submit=$3
            nl='
            '
            fields() { state=$1 sess=$4; }
            cd -- "$1" 2>/dev/null || exit 0
            for d in job-*; do
              [ -d "$d" ] || continue
              if [ -n "$submit" ] && [ "$d" != "$submit" ]; then
                { [ -e "$d/exit" ] || [ -e "$d/cancelled" ] || [ -e "$d/preempted" ]; } && continue
              fi
              launched=0 pid= started= ended= code= c=- p=- pr= pl= alive=0
              [ -e "$d/launched" ] && launched=1
              [ -f "$d/pid" ] && read -r pid < "$d/pid"
              [ -f "$d/started" ] && read -r started < "$d/started"
              [ -f "$d/ended" ] && read -r ended < "$d/ended"
              [ -f "$d/exit" ] && read -r code < "$d/exit"
              [ -f "$d/cancelled" ] && { read -r c; c=${c:-?}; } < "$d/cancelled"
              [ -f "$d/preempted" ] && { read -r p; p=${p:-?}; read -r pr; } < "$d/preempted"
              [ -f "$d/placement" ] && read -r pl < "$d/placement"
              if [ -z "$code" ] && [ -n "$pid" ] && read -r st < "/proc/$pid/stat" 2>/dev/null; then
                fields ${st##*) }
                if [ "$state" = Z ]; then :
                elif [ -n "$submit" ]; then alive=1
                else
                  cl=$(tr '\\0' '\\n' < "/proc/$pid/cmdline" 2>/dev/null)
                  case "$nl$cl$nl" in
                    *"$nl$1/$d$nl"*) alive=1 ;;
                    # No command line, for a moment: the job between two execs of its launch (setsid, the loader,
                    # the wrapper), told from a process that reused the id by leading its own session, or exiting,
                    # when exit is there already.
                    "$nl$nl") [ "$sess" = "$pid" ] && [ ! -f "$d/exit" ] && alive=1 ;;
                  esac
                fi
              fi
              # It may have ended since exit was read: the wrapper writes exit before it exits, so look again.
              if [ -z "$code" ] && [ "$alive" = 0 ] && [ -f "$d/exit" ]; then
                read -r code < "$d/exit"
                [ -f "$d/ended" ] && read -r ended < "$d/ended"
              fi
              printf 'J\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\n' "$d" "$launched" "$pid" \\
                "$started" "$ended" "$code" "$c" "$p" "$alive" "$pl" "$pr"
            done
            """;

    /** A scan of thousands of jobs takes well under a second; the metadata requests have their own limits. */
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    /** One job directory as the scan saw it. */
    public record Entry(String id, JobSnapshot snapshot, Optional<RankPlacement> placement) {
    }

    private HostScan() {
    }

    /**
     * Reads every job directory under the host's work directory in one command. With metadata requests (the
     * Scheduled Events of a host watched for evictions) their answers follow in the same command's output, for
     * {@link MetadataQuery#answers}. With a {@code claim}, the scan first claims that job under {@code .claims/}:
     * an atomic mkdir that only the first submit of the job gets (or one that finds the claim over a minute old,
     * left by a submit that died); {@link #claimed} reads the outcome. For a submit of job {@code submitted} it
     * reports that job whole and, of the others, only those that have not ended, their liveness taken from the
     * process table alone (see {@link #SCRIPT}).
     */
    public static String read(Host host, String workDir, List<MetadataQuery.Request> metadata,
                              Optional<String> claim, Optional<String> submitted) {
        List<String> arguments = List.of(workDir, claim.orElse(""), submitted.orElse(""));
        List<String> argv = new ArrayList<>(List.of("sh", "-c", SCRIPT, "sh"));
        argv.addAll(arguments);
        if (!metadata.isEmpty()) {
            argv = MetadataQuery.argvAfter(SCRIPT, arguments, metadata);
        }
        RemoteResult result = host.exec(argv, Optional.empty(), TIMEOUT);
        if (!result.succeeded()) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "could not read the job directories in " + workDir
                    + " on " + host.name() + ": exit " + result.exitCode()
                    + (result.stderrText().isBlank() ? "" : ", " + result.stderrText().strip()));
        }
        return result.stdoutText();
    }

    /** Whether the scan got the claim it was asked to take; empty when it was asked for none. */
    public static Optional<Boolean> claimed(String output) {
        for (String line : output.split("\n")) {
            if (line.startsWith("C\t")) {
                return Optional.of(line.substring(2).strip().equals("mine"));
            }
        }
        return Optional.empty();
    }

    /** The scan's output by job id; lines it does not understand are skipped (a damaged directory). */
    public static Map<String, Entry> parse(String output) {
        Map<String, Entry> entries = new LinkedHashMap<>();
        for (String line : output.split("\n")) {
            String[] f = line.split("\t", 12);
            if (f.length != 12 || !f[0].equals("J")) {
                continue;
            }
            OptionalLong pid = number(f[3]);
            OptionalLong exit = number(f[6]);
            boolean cancelled = !f[7].equals("-");
            Optional<String> preempted = f[8].equals("-") ? Optional.empty()
                    : Optional.of(f[11].replace('\t', ' ').strip());
            Optional<Instant> started = instant(f[4]);
            Optional<Instant> ended = instant(f[5]).or(() -> instant(f[7])).or(() -> instant(f[8]));
            JobSnapshot snapshot = new JobSnapshot("", f[2].equals("1") || pid.isPresent(), pid,
                    f[9].equals("1"), exit.isPresent() ? OptionalInt.of((int) exit.getAsLong()) : OptionalInt.empty(),
                    cancelled, preempted, started, ended);
            entries.put(f[1], new Entry(f[1], snapshot, RankPlacement.parse(f[10])));
        }
        return entries;
    }

    private static OptionalLong number(String text) {
        try {
            return text.isBlank() ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(text.strip()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static Optional<Instant> instant(String text) {
        try {
            boolean none = text.isBlank() || text.equals("-") || text.equals("?");
            return none ? Optional.empty() : Optional.of(Instant.parse(text.strip()));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }
}
