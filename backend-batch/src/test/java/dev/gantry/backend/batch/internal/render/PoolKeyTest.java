package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.MetadataItem;
import dev.gantry.api.ImageRef;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Plan;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PoolKeyTest {
    private static final Plan PLAN = ExamplePlans.llmFinetune().plan();

    private static PoolKey key(Plan plan) {
        return PoolKey.of("mlbatch", plan, Optional.of("echo boot"), Optional.empty());
    }

    @Test
    void everyPartOfTheKeyMakesAnotherPool() {
        PoolKey base = key(PLAN);
        Set<String> ids = new HashSet<>();
        ids.add(base.poolId("gantry-"));
        ids.add(PoolKey.of("other", PLAN, Optional.of("echo boot"), Optional.empty()).poolId("gantry-"));
        ids.add(key(Plan.builder(PLAN.workload(), ExamplePlans.NC_A100).nodes(2).spot(true)
                .image(PLAN.image()).boot(PLAN.boot()).build()).poolId("gantry-"));
        ids.add(key(PLAN.withBoot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 24.04"))))
                .poolId("gantry-"));
        ids.add(key(Plan.builder(PLAN.workload(), PLAN.vmSize()).nodes(2).spot(false).image(PLAN.image())
                .boot(PLAN.boot()).build()).poolId("gantry-"));
        ids.add(key(Plan.builder(PLAN.workload(), PLAN.vmSize()).nodes(1).spot(true).image(PLAN.image())
                .boot(PLAN.boot()).build()).poolId("gantry-"));
        ids.add(key(Plan.builder(PLAN.workload(), PLAN.vmSize()).nodes(2).spot(true).image(ExamplePlans.UBUNTU)
                .boot(PLAN.boot()).build()).poolId("gantry-"));
        ids.add(PoolKey.of("mlbatch", PLAN, Optional.of("echo other boot"), Optional.empty()).poolId("gantry-"));
        ids.add(PoolKey.of("mlbatch", PLAN, Optional.of("echo boot"), Optional.of("/identity")).poolId("gantry-"));
        ids.add(key(PLAN.withWorkload(PLAN.workload().toBuilder().container((String) null).build()))
                .poolId("gantry-"));
        assertEquals(10, ids.size(), ids.toString());
        assertEquals(base.poolId("gantry-"), key(PLAN).poolId("gantry-"), "the same key gives the same id");
    }

    @Test
    void containerImagesDoNotMakeAnotherPool() {
        Plan other = PLAN.withWorkload(PLAN.workload().toBuilder().container("nvcr.io/nvidia/pytorch:24.09-py3")
                .build());
        assertEquals(key(PLAN).poolId("gantry-"), key(other).poolId("gantry-"));
    }

    @Test
    void idsAreBatchIdsOfAtMost64CharactersAndReadable() {
        String id = key(PLAN).poolId("a-very-long-prefix-here-");
        assertTrue(id.length() <= PoolKey.MAX_ID && id.matches("[a-z0-9_-]+"), id);
        assertTrue(key(PLAN).poolId("gantry-").matches("gantry-nd96amsr-a100-v4-spot-mn-[0-9a-f]{12}"),
                key(PLAN).poolId("gantry-"));
        assertEquals(key(PLAN).poolId("gantry-"), key(PLAN).jobId("gantry-"));
    }

    @Test
    void metadataMarksThePoolAsGantrysWithItsDigest() {
        List<MetadataItem> metadata = PoolMetadata.of(key(PLAN));
        assertTrue(PoolMetadata.isGantrys(metadata));
        assertEquals(Optional.of(PoolMetadata.digest(key(PLAN))), PoolMetadata.digestOf(metadata));
        assertTrue(key(PLAN).poolId("gantry-").endsWith(PoolMetadata.digest(key(PLAN)).substring(0, 12)));
        assertEquals(false, PoolMetadata.isGantrys(List.of(new MetadataItem().withName("owner").withValue("x"))));
        assertEquals(false, PoolMetadata.isGantrys(null));
    }

    @Test
    void aPlanWithoutAPoolImageIsRefused() {
        Plan host = Plan.builder(PLAN.workload(), PLAN.vmSize()).image(ImageRef.host()).boot(PLAN.boot()).build();
        assertThrows(IllegalArgumentException.class, () -> key(host));
        Plan noSku = PLAN.withBoot(NodeBoot.none());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> key(noSku));
        assertTrue(e.getMessage().contains("node agent SKU"), e.getMessage());
        assertNotEquals(null, PoolBody.image(ExamplePlans.GALLERY).virtualMachineImageId());
        assertThrows(IllegalArgumentException.class, () -> PoolBody.image(ImageRef.marketplace("x", "a:b:c")));
    }
}
