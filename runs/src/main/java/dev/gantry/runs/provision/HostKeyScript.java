package dev.gantry.runs.provision;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.ssh.HostPublicKey;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The fixed shell script Run Command executes on a new VM to read its SSH host keys, and the reading of what it
 * printed. Run Command goes through Azure Resource Manager and the VM agent, both authenticated, so keys read this way
 * can be pinned before the first SSH connection: nothing is trusted on first use.
 *
 * <p>The script takes no input (nothing a user wrote reaches a shell). It waits, bounded, for the key files, because
 * cloud-init writes fresh host keys during the first boot, and prints each public key on a line of its own behind
 * {@value #MARKER}, so that anything else the VM prints (a login banner, agent chatter) is never taken for a key.
 */
final class HostKeyScript {
    static final String MARKER = "gantry-host-key ";

    /**
     * One line per element, as {@code RunCommandInput.script} takes it. cloud-init replaces the image's host keys
     * during the first boot, and the agent may run the command before that is done: the script first waits (bounded)
     * for cloud-init to finish, so the keys it reads are the ones sshd will offer.
     */
    static final List<String> LINES = List.of(
            "command -v cloud-init >/dev/null 2>&1 && timeout 600 cloud-init status --wait >/dev/null 2>&1",
            "i=0",
            "while ! ls /etc/ssh/ssh_host_*_key.pub >/dev/null 2>&1 && [ \"$i\" -lt 60 ]; do sleep 2; i=$((i+1)); done",
            "for f in /etc/ssh/ssh_host_*_key.pub; do",
            "  [ -r \"$f\" ] && printf '" + MARKER + "%s\\n' \"$(cat \"$f\")\"",
            "done",
            "exit 0");

    private HostKeyScript() {
    }

    /**
     * The SHA-256 fingerprints of the keys the script printed, in the order printed, without duplicates. Fails with
     * REMOTE_ERROR naming the VM when the script printed no key or a marked line that is not a key.
     */
    static List<String> fingerprints(String vmName, Optional<RunCommandOutput> output) {
        if (output.isEmpty()) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Run Command on VM " + vmName + " returned no script "
                    + "output, so its SSH host keys could not be read; the VM agent may not be running yet: run "
                    + "gantry vm up again to retry");
        }
        Set<String> fingerprints = new LinkedHashSet<>();
        List<String> bad = new ArrayList<>();
        for (String line : output.get().stdout().split("\n")) {
            if (!line.startsWith(MARKER)) {
                continue;
            }
            String key = line.substring(MARKER.length());
            HostPublicKey.parse(key).ifPresentOrElse(k -> fingerprints.add(k.fingerprint()),
                    () -> bad.add(abbreviate(key)));
        }
        if (!bad.isEmpty()) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Run Command on VM " + vmName + " printed host key "
                    + "line(s) that are not OpenSSH public keys: " + String.join("; ", bad) + " (truncated output?); "
                    + "check /etc/ssh/ssh_host_*_key.pub on the VM");
        }
        if (fingerprints.isEmpty()) {
            String stderr = output.get().stderr().strip();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Run Command on VM " + vmName + " found no SSH host "
                    + "key in /etc/ssh/ssh_host_*_key.pub (" + output.get().status()
                    + (stderr.isEmpty() ? "" : "; stderr: " + abbreviate(stderr)) + "); is sshd installed on the "
                    + "image? Run gantry vm up again once it is");
        }
        return List.copyOf(fingerprints);
    }

    private static String abbreviate(String text) {
        return text.length() <= 120 ? text : text.substring(0, 117) + "...";
    }
}
