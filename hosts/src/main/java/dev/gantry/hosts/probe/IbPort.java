package dev.gantry.hosts.probe;

import java.util.Objects;
import java.util.Optional;

/**
 * One port of an RDMA adapter, from {@code ibv_devinfo}.
 *
 * @param device the adapter, e.g. {@code mlx5_0}
 * @param port the port number
 * @param state the logical state without the {@code PORT_} prefix: {@code ACTIVE}, {@code DOWN}, {@code INIT},
 *     {@code ARMED}
 * @param linkLayer {@code InfiniBand} or {@code Ethernet} (RoCE)
 * @param rate the active width and speed when reported (with {@code ibv_devinfo -v}), e.g. {@code 4X 25.0 Gbps}
 */
public record IbPort(String device, int port, String state, String linkLayer, Optional<String> rate) {
    public IbPort {
        Objects.requireNonNull(device, "device");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(linkLayer, "linkLayer");
        Objects.requireNonNull(rate, "rate");
    }

    public boolean active() {
        return state.equals("ACTIVE");
    }

    public boolean infiniband() {
        return linkLayer.equalsIgnoreCase("InfiniBand");
    }
}
