package dev.gantry.backend.batch.kit;

/**
 * The whole conformance kit against the Batch fake on an existing warm pool ({@link BatchKitFixture.Pools#EXISTING}):
 * an Entra ID account in user-subscription mode, Spot plans, secrets from the blob fake through the pool identity.
 */
class BatchConformanceTest extends KitOnTheFake {
    BatchConformanceTest() {
        super(new BatchKitFixture());
    }
}
