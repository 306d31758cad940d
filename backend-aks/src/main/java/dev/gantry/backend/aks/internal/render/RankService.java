package dev.gantry.backend.aks.internal.render;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;

/**
 * The headless Service through which the ranks of a multi-node job find each other ({@code NAME-0.NAME} is rank 0).
 * It publishes addresses before any pod is ready, since the ranks must meet before any of them can be; owned by the
 * Job, so it goes with it.
 */
public final class RankService {
    private RankService() {
    }

    public static Service render(JobIdentity job, int masterPort, OwnerReference owner) {
        return new ServiceBuilder().withMetadata(job.metadata(job.name())).editMetadata()
                .withOwnerReferences(owner).endMetadata()
                .withNewSpec().withClusterIP("None").withPublishNotReadyAddresses(true)
                .addToSelector(JobIdentity.JOB, job.name())
                .addNewPort().withName("master").withProtocol("TCP").withPort(masterPort).endPort()
                .endSpec().build();
    }
}
