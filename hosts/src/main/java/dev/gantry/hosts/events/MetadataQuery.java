package dev.gantry.hosts.events;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Requests to a host's Instance Metadata Service, made FROM the host: the service answers on a link-local address
 * that only the VM itself reaches. All requests of one query travel as one short shell command (one remote command
 * per host per status poll), using curl or wget, whichever the host has. Each answer comes back between marker
 * lines with the client's exit status, because a host command reports only its standard output.
 *
 * <p>URLs and bodies are positional parameters of {@code sh -c}, never part of the script text, so they arrive
 * verbatim.
 */
public final class MetadataQuery {
    /** Per request; IMDS answers in milliseconds, an unreachable one should not hold a status poll long. */
    static final int REQUEST_SECONDS = 2;
    /** What the script returns when neither client exists: the shell's own code for "command not found". */
    static final int NO_CLIENT = 127;
    static final String SCRIPT = String.join("\n",
            "fetch() {",
            "  if command -v curl >/dev/null 2>&1; then",
            "    if [ -n \"$2\" ]; then",
            "      curl -sSf --max-time " + REQUEST_SECONDS
                    + " -H Metadata:true -H Content-Type:application/json --data-binary \"$2\" -- \"$1\" 2>&1",
            "    else",
            "      curl -sSf --max-time " + REQUEST_SECONDS + " -H Metadata:true -- \"$1\" 2>&1",
            "    fi",
            "  elif command -v wget >/dev/null 2>&1; then",
            "    if [ -n \"$2\" ]; then",
            "      wget -q -T " + REQUEST_SECONDS + " -t 1 -O - --header=Metadata:true"
                    + " --header=Content-Type:application/json --post-data=\"$2\" -- \"$1\" 2>&1",
            "    else",
            "      wget -q -T " + REQUEST_SECONDS + " -t 1 -O - --header=Metadata:true -- \"$1\" 2>&1",
            "    fi",
            "  else",
            "    echo 'neither curl nor wget is installed'",
            "    return " + NO_CLIENT,
            "  fi",
            "}",
            "while [ $# -ge 3 ]; do",
            "  echo \"@@gantry-begin $1\"",
            "  fetch \"$2\" \"$3\"",
            "  rc=$?",
            "  echo",
            "  echo \"@@gantry-end $1 $rc\"",
            "  shift 3",
            "done",
            "");
    private static final Pattern END = Pattern.compile("@@gantry-end (\\S+) (\\d+)");

    /** One request: a name for its answer, the URL, and a JSON body for a POST (empty for a GET). */
    public record Request(String name, URI url, String body) {
        public static Request get(String name, URI url) {
            return new Request(name, url, "");
        }
    }

    /** One request's answer: the client's exit status and what it printed (the body, or its error message). */
    public record Answer(int exit, String text) {
        public boolean ok() {
            return exit == 0;
        }

        /** Why the request failed, in words a user can act on. */
        public String problem(String host, URI url) {
            if (exit == NO_CLIENT) {
                return "neither curl nor wget is installed on " + host + ", so Gantry cannot read " + url
                        + "; install curl there";
            }
            String said = ScheduledEvents.excerpt(text);
            return "could not read " + url + " on " + host + " (exit " + exit + (said.equals("(empty)") ? "" : ": "
                    + said) + ")";
        }
    }

    private MetadataQuery() {
    }

    /** The host command for these requests. */
    public static List<String> argv(List<Request> requests) {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", SCRIPT, "sh"));
        for (Request request : requests) {
            argv.add(request.name());
            argv.add(request.url().toString());
            argv.add(request.body());
        }
        return argv;
    }

    /**
     * One host command that first runs {@code script} with {@code argument} as its {@code $1} (in a subshell, so its
     * {@code exit} and {@code cd} stay there), then these requests: two questions for the price of one round trip.
     * The script's own output must not contain the answer markers.
     */
    public static List<String> argvAfter(String script, List<String> arguments, List<Request> requests) {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", "(\n" + script + ")\nshift " + arguments.size()
                + "\n" + SCRIPT, "sh"));
        argv.addAll(arguments);
        for (Request request : requests) {
            argv.add(request.name());
            argv.add(request.url().toString());
            argv.add(request.body());
        }
        return argv;
    }

    /** How long the whole command may take: every request's timeout, plus slack for starting the shell. */
    public static Duration timeout(List<Request> requests) {
        return Duration.ofSeconds((long) REQUEST_SECONDS * requests.size() + 5);
    }

    /** The answers by request name; a request whose markers are missing (the command did not run) has none. */
    public static Map<String, Answer> answers(String output) {
        Map<String, Answer> answers = new LinkedHashMap<>();
        String current = null;
        StringBuilder text = new StringBuilder();
        for (String line : output.split("\n", -1)) {
            if (line.startsWith("@@gantry-begin ")) {
                current = line.substring("@@gantry-begin ".length()).strip();
                text.setLength(0);
                continue;
            }
            Matcher end = END.matcher(line.strip());
            if (current != null && end.matches() && end.group(1).equals(current)) {
                answers.put(current, new Answer(Integer.parseInt(end.group(2)), text.toString().strip()));
                current = null;
                continue;
            }
            if (current != null) {
                text.append(line).append('\n');
            }
        }
        return answers;
    }

    /** The answer to one request, or why there is none. */
    public static Optional<Answer> answer(Map<String, Answer> answers, String name) {
        return Optional.ofNullable(answers.get(name));
    }
}
