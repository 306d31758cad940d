package dev.gantry.hosts.probe;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parser for {@code ibv_devinfo}: blocks that start with {@code hca_id: DEVICE}, each with {@code port: N} sub-blocks
 * holding {@code state: PORT_ACTIVE (4)} and {@code link_layer: InfiniBand|Ethernet}; {@code ibv_devinfo -v} also
 * prints {@code active_width} and {@code active_speed}, which give the rate. Fields are separated by tabs or spaces.
 */
public final class IbvDevinfo {
    private static final Pattern FIELD = Pattern.compile("^\\s*([a-z_]+):\\s*(.*?)\\s*$");
    private static final Pattern STATE = Pattern.compile("^PORT_([A-Z_]+)(?:\\s*\\(\\d+\\))?$");
    private static final Pattern WIDTH = Pattern.compile("^(\\d+X)\\b.*");
    private static final Pattern SPEED = Pattern.compile("^([0-9.]+ Gbps)\\b.*");

    private IbvDevinfo() {
    }

    public static Parsed<List<IbPort>> ports(String text) {
        List<IbPort> ports = new ArrayList<>();
        List<ProbeProblem> problems = new ArrayList<>();
        String device = null;
        Port port = null;
        for (String raw : text.split("\n")) {
            Matcher m = FIELD.matcher(raw);
            if (!m.matches()) {
                continue;
            }
            String key = m.group(1);
            String value = m.group(2);
            switch (key) {
                case "hca_id" -> {
                    finish(port, ports, problems);
                    port = null;
                    device = value;
                }
                case "port" -> {
                    finish(port, ports, problems);
                    port = null;
                    if (device == null) {
                        problems.add(new ProbeProblem("ibv_devinfo", "port '" + value + "' before any hca_id"));
                    } else if (!value.matches("\\d{1,4}")) {
                        problems.add(new ProbeProblem("ibv_devinfo", device + ": port number '" + value
                                + "' is not a number"));
                    } else {
                        port = new Port(device, Integer.parseInt(value));
                    }
                }
                case "state" -> {
                    if (port != null) {
                        Matcher s = STATE.matcher(value);
                        port.state = s.matches() ? s.group(1) : value;
                    }
                }
                case "link_layer" -> {
                    if (port != null) {
                        port.linkLayer = value;
                    }
                }
                case "active_width" -> {
                    if (port != null) {
                        Matcher w = WIDTH.matcher(value);
                        port.width = w.matches() ? w.group(1) : null;
                    }
                }
                case "active_speed" -> {
                    if (port != null) {
                        Matcher s = SPEED.matcher(value);
                        port.speed = s.matches() ? s.group(1) : null;
                    }
                }
                default -> {
                    // other fields (fw_ver, mtu, lids, ...) are not needed
                }
            }
        }
        finish(port, ports, problems);
        return new Parsed<>(ports, problems);
    }

    private static void finish(Port port, List<IbPort> ports, List<ProbeProblem> problems) {
        if (port == null) {
            return;
        }
        if (port.state == null || port.linkLayer == null) {
            problems.add(new ProbeProblem("ibv_devinfo", port.device + " port " + port.number + ": missing "
                    + (port.state == null ? "state" : "link_layer")));
            return;
        }
        Optional<String> rate = port.width != null && port.speed != null
                ? Optional.of(port.width + " " + port.speed) : Optional.empty();
        ports.add(new IbPort(port.device, port.number, port.state, port.linkLayer, rate));
    }

    /** A port being read; becomes an {@link IbPort} when its block ends. */
    private static final class Port {
        final String device;
        final int number;
        String state;
        String linkLayer;
        String width;
        String speed;

        Port(String device, int number) {
            this.device = device;
            this.number = number;
        }
    }
}
