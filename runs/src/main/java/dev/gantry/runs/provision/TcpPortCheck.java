package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;

/**
 * Ready when a TCP connection to the VM's SSH port succeeds, at its public address when it has one, else its private
 * one (which only answers from inside the virtual network, a peered network or a VPN).
 */
public final class TcpPortCheck implements ReadinessCheck {
    public static final int SSH_PORT = 22;

    private final int port;
    private final Duration connectTimeout;

    public TcpPortCheck(int port, Duration connectTimeout) {
        if (port < 1 || port > 65_535) {
            throw new IllegalArgumentException("port " + port + " is out of range 1..65535");
        }
        this.port = port;
        this.connectTimeout = connectTimeout;
    }

    public static TcpPortCheck ssh() {
        return new TcpPortCheck(SSH_PORT, Duration.ofSeconds(5));
    }

    @Override
    public Readiness check(VmInventoryEntry vm) {
        String address = vm.sshAddress();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(address, port), Math.toIntExact(connectTimeout.toMillis()));
            return Readiness.ok();
        } catch (IOException e) {
            return Readiness.notYet("port " + port + " at " + address + " does not answer (" + e.getMessage() + ")");
        }
    }
}
