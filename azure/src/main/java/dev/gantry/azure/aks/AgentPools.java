package dev.gantry.azure.aks;

import dev.gantry.azure.arm.ArmConnector;
import java.util.List;
import java.util.Optional;

/**
 * The node pools (agent pools) of AKS clusters in one subscription: read one, list Gantry's, start creating one. It
 * decides nothing (the caller names and sizes each pool) and never changes or deletes a pool: a creation is sent with
 * {@code If-None-Match: *}, so a pool that already exists, Gantry's or anyone's, is answered as it is. Plain values in
 * and out, so that a backend uses it without the Azure SDK's types; failures are {@code GantryException}s saying what
 * was being done and the fix.
 */
public interface AgentPools {
    /**
     * The Azure tag every pool Gantry creates carries, with the value {@code true}, as Gantry's VMs do. Not
     * {@code gantry.dev/managed}: Azure tag names may not contain {@code <>%&\?/}.
     */
    String MANAGED_TAG = "gantry:managed";

    /** The pool of that name, empty when the cluster has none; a cluster or resource group that is missing is an error. */
    Optional<AgentPool> find(AksCluster cluster, String name);

    /** The cluster's pools that carry {@value #MANAGED_TAG}{@code =true} (one request; AKS filters no pools itself). */
    List<AgentPool> managedByGantry(AksCluster cluster);

    /**
     * Starts creating the pool and answers at once, without waiting for its nodes: the pool as Azure accepted it
     * (provisioning state {@code Creating}), or, when one of that name exists already, that pool unchanged (check
     * {@link AgentPool#managedByGantry()} before using it).
     */
    AgentPool beginCreate(AksCluster cluster, PoolRequest request);

    /** The subscription's pools, reached as {@code connector} reaches Resource Manager. */
    static AgentPools connect(ArmConnector connector, String subscriptionId) {
        return new ArmAgentPools(connector.containerService(subscriptionId).serviceClient().getAgentPools());
    }

    /**
     * The subscription's pools in the cloud the environment chooses, signed in through the
     * {@code DefaultAzureCredential} chain.
     */
    static AgentPools defaultAzureCredential(String subscriptionId) {
        return connect(ArmConnector.defaultAzureCredential(), subscriptionId);
    }
}
