package dev.gantry.hosts.probe;

import java.util.List;
import java.util.Objects;

/**
 * The one POSIX {@code sh} script that probes a host in a single remote call. It is a constant: no user value is
 * interpolated into it; the work directory arrives as the positional parameter {@code $1}, so a path with spaces or
 * quotes reaches {@code df} verbatim.
 *
 * <p>Every probe prints a section: a start line {@code ===gantry-probe:NAME===}, the command's output (stdout and
 * stderr), and an end line {@code ===gantry-probe-end:NAME:STATUS===} with the exit status. A command that is not
 * installed gives status {@value #NOT_INSTALLED}; one that hangs is stopped after {@value #TIMEOUT_SECONDS} seconds
 * (status 124) when {@code timeout} exists, because a wedged GPU can make {@code nvidia-smi} block forever.
 */
public final class ProbeScript {
    /** Exit status reported for a command that is not installed (as the shell does). */
    public static final int NOT_INSTALLED = 127;
    /** Per-command time limit, seconds. */
    public static final int TIMEOUT_SECONDS = 30;
    /** Where the images module's boot script writes its readiness marker. */
    public static final String BOOT_MARKER_PATH = "/var/lib/gantry/ready.json";
    /** Start-of-section prefix; a section's start line is {@code PREFIX + name + "==="}. */
    public static final String START = "===gantry-probe:";
    /** End-of-section prefix; an end line is {@code END + name + ":" + status + "==="}. */
    public static final String END = "===gantry-probe-end:";

    /** The sections, in the order the script prints them. */
    public static final List<String> SECTIONS = List.of("os", "kernel", "cpus", "meminfo", "disk", "nvidia-smi",
            "nvidia-smi-header", "rocm-smi", "nvidia-ctk", "cdi-specs", "docker-info", "podman-info", "ibv_devinfo",
            "ready-marker");

    /** The script text. Run it as {@code sh -c TEXT gantry-probe WORKDIR} (see {@link #argv(String)}). */
    public static final String TEXT = """
            # Gantry host probe: prints one delimited section per probe, each with its exit status.
            # Arguments: $1 = the work directory whose free space is measured.
            LC_ALL=C
            export LC_ALL
            workdir=${1:-$HOME}
            begin() { printf '%s\\n' "===gantry-probe:$1==="; }
            end() { printf '\\n%s\\n' "===gantry-probe-end:$1:$2==="; }
            # probe NAME COMMAND ARGS...: run COMMAND with a time limit; status 127 when it is not installed.
            probe() {
              name=$1
              shift
              begin "$name"
              if command -v "$1" >/dev/null 2>&1; then
                # stdin from /dev/null: when the script itself arrives on stdin (sh -s), no probe may eat it.
                if command -v timeout >/dev/null 2>&1; then
                  timeout 30 "$@" </dev/null 2>&1
                else
                  "$@" </dev/null 2>&1
                fi
                status=$?
              else
                printf '%s\\n' "gantry-probe: $1: not installed"
                status=127
              fi
              end "$name" "$status"
            }
            # The nearest existing directory at or above the work directory (it may not exist before the first job).
            existing_dir() {
              d=$1
              # A relative path gets ./ so that a name starting with '-' is never read as an option.
              case $d in /*) ;; *) d=./$d ;; esac
              while [ ! -d "$d" ] && [ "$d" != "/" ] && [ "$d" != "." ]; do
                d=$(dirname -- "$d")
              done
              printf '%s\\n' "$d"
            }
            cdi_specs() {
              for d in /etc/cdi /var/run/cdi; do
                if [ -d "$d" ]; then
                  for f in "$d"/*; do
                    [ -e "$f" ] && printf '%s\\n' "$f"
                  done
                fi
              done
              return 0
            }
            begin os
            if [ -r /etc/os-release ]; then
              cat /etc/os-release 2>&1
              status=$?
            else
              echo "no /etc/os-release"
              status=1
            fi
            end os "$status"
            probe kernel uname -srm
            probe cpus nproc
            begin meminfo
            if [ -r /proc/meminfo ]; then
              cat /proc/meminfo 2>&1
              status=$?
            else
              echo "no /proc/meminfo"
              status=1
            fi
            end meminfo "$status"
            probe disk df -Pk "$(existing_dir "$workdir")"
            probe nvidia-smi nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader,nounits
            probe nvidia-smi-header nvidia-smi
            probe rocm-smi rocm-smi --showproductname --showmeminfo vram --json
            probe nvidia-ctk nvidia-ctk --version
            begin cdi-specs
            cdi_specs
            end cdi-specs "$?"
            probe docker-info docker info
            probe podman-info podman info --format json
            probe ibv_devinfo ibv_devinfo
            begin ready-marker
            if [ -f /var/lib/gantry/ready.json ]; then
              cat /var/lib/gantry/ready.json 2>&1
              status=$?
            else
              echo "no marker"
              status=127
            fi
            end ready-marker "$status"
            exit 0
            """;

    private ProbeScript() {
    }

    /**
     * The command line for an SSH exec channel: {@code sh -s -- 'WORKDIR'}, with {@link #TEXT} written to the
     * command's stdin. The script never passes through the remote login shell's parser (which may not be POSIX);
     * only the work directory does, single-quoted so that it arrives verbatim.
     *
     * @throws IllegalArgumentException when the work directory holds a NUL or a line break, which no login shell
     *     passes through intact
     */
    public static String remoteCommand(String workDir) {
        Objects.requireNonNull(workDir, "workDir");
        if (workDir.indexOf('\0') >= 0 || workDir.indexOf('\n') >= 0 || workDir.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("workDir must not contain NUL or line breaks, got '"
                    + workDir.replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0") + "'");
        }
        return "sh -s -- '" + workDir.replace("'", "'\\''") + "'";
    }

    /**
     * The argument vector that runs the script locally: {@code sh -c TEXT gantry-probe WORKDIR}. The work directory is
     * a separate argument, never part of the script; a transport that goes through a remote shell quotes each element.
     */
    public static List<String> argv(String workDir) {
        Objects.requireNonNull(workDir, "workDir");
        if (workDir.indexOf('\0') >= 0) {
            throw new IllegalArgumentException("workDir must not contain a NUL character");
        }
        return List.of("sh", "-c", TEXT, "gantry-probe", workDir);
    }
}
