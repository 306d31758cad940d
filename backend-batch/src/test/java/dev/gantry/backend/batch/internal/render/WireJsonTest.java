package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import org.junit.jupiter.api.Test;

class WireJsonTest {
    @Test
    void theIndentedFormIsTheWireBodyWithWhitespace() throws Exception {
        ExamplePlans.Example example = ExamplePlans.llmFinetune();
        PoolKey key = PoolKey.of("mlbatch", example.plan(), example.bootScript(), java.util.Optional.empty());
        PoolAddParameter pool = PoolBody.render(key, key.poolId("gantry-"), example.plan(), example.bootScript(), 4);
        ObjectMapper plain = new ObjectMapper();
        assertEquals(plain.readTree(WireJson.compact(pool)), plain.readTree(WireJson.pretty(pool)));
        assertEquals(WireJson.compact(pool), plain.writeValueAsString(plain.readTree(WireJson.pretty(pool))),
                "same fields in the same order");
    }
}
