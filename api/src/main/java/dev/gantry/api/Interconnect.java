package dev.gantry.api;

/** Network between the nodes of a multi-node workload. Specs spell the constants in lower case. */
public enum Interconnect {
    /** RDMA over InfiniBand: RDMA-capable sizes only. */
    INFINIBAND,
    /** Ordinary Ethernet networking: no RDMA required. */
    ETHERNET,
    /** Let the advisor decide by the guidance. */
    ANY;
}
