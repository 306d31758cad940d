package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.io.IOException;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class ClusterStatusParserTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @ParameterizedTest
    @CsvSource({"hpc-prod, " + Goldens.SLURM, "spot-mix, " + Goldens.SPOT, "multi, " + Goldens.MULTIPLE})
    void eachGoldenStatusReadsAsItsGoldenLayout(String cluster, String name) {
        Goldens.FILES.assertLines(name + ".layout", Goldens.layout(cluster, name).describe());
    }

    @Test
    void thePartitionIsTheConfiguredOneElseTheArraysNameAndNoneWithoutAutoscale() {
        ClusterLayout slurm = Goldens.layout("hpc-prod", Goldens.SLURM);
        assertEquals(List.of(Optional.of("hpc"), Optional.of("htc"), Optional.of("gpu"), Optional.of("dynamic"),
                Optional.empty()), slurm.nodeArrays().stream().map(NodeArray::partition).toList());
        ClusterLayout multi = Goldens.layout("multi", Goldens.MULTIPLE);
        assertEquals("ondemand", multi.nodeArrays().get(0).name());
        assertEquals(Optional.of("compute"), multi.nodeArrays().get(0).partition());
    }

    @Test
    void interruptibleArraysAreSpotAndSlurmFlagsReadAsCycleCloudSlurmReadsThem() {
        ClusterLayout spot = Goldens.layout("spot-mix", Goldens.SPOT);
        assertEquals(List.of(false, true, true, false), spot.nodeArrays().stream().map(NodeArray::spot).toList());
        // gpuspot writes slurm.hpc as the string "false"; hpcspot leaves it out, which cyclecloud-slurm reads as true.
        assertEquals(List.of(false, false, true, false), spot.nodeArrays().stream().map(NodeArray::hpc).toList());
    }

    @Test
    void bucketsKeepValidityCountsAndTheMachine() {
        NodeArray htc = Goldens.layout("spot-mix", Goldens.SPOT).nodeArrays().get(3);
        assertEquals(List.of(new NodeArray.Bucket("Standard_F4s_v2", true, Optional.empty(), 27, 0, 27, 100, 4, 8.0,
                        OptionalInt.of(0), false),
                new NodeArray.Bucket("Standard_F2s_v2", false, Optional.of("DisabledMachineType"), 1, 1, 0, 200, 2, 4.0,
                        OptionalInt.of(0), false)), htc.buckets());
        assertEquals(List.of("Standard_F4s_v2"), htc.startableSizes());
    }

    @Test
    void anAbsentGpuCountIsUnknownNotZero() {
        NodeArray.Bucket hc44 = Goldens.layout("multi", Goldens.MULTIPLE).nodeArrays().get(0).buckets().get(1);
        assertEquals("Standard_HC44rs", hc44.vmSize());
        assertEquals(OptionalInt.empty(), hc44.gpuCount());
        assertEquals(327.83, hc44.memoryGb());
        assertTrue(hc44.infiniband());
    }

    @Test
    void theClusterStateIsOptional() {
        ClusterLayout multi = Goldens.layout("multi", Goldens.MULTIPLE);
        assertEquals(Optional.empty(), multi.state());
        assertEquals(Optional.empty(), multi.targetState());
        ClusterLayout slurm = Goldens.layout("hpc-prod", Goldens.SLURM);
        assertEquals(Optional.of("Started"), slurm.state());
        assertEquals(172, slurm.maxCount());
        assertEquals(4000, slurm.maxCoreCount());
    }

    @Test
    void unknownFieldsAnywhereAreIgnored() throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(Goldens.status(Goldens.MULTIPLE));
        root.put("futureClusterField", "x");
        ObjectNode array = (ObjectNode) root.get("nodearrays").get(0);
        array.putObject("futureArrayField").put("a", 1);
        ObjectNode bucket = (ObjectNode) array.get("buckets").get(0);
        bucket.putArray("futureBucketField").add(true);
        ((ObjectNode) bucket.get("virtualMachine")).put("futureMachineField", 3.5);
        ((ObjectNode) bucket.get("definition")).put("futureDefinitionField", "y");
        assertEquals(Goldens.layout("multi", Goldens.MULTIPLE), ClusterStatusParser.parse("multi", root.toString()));
    }

    @Test
    void everyMissingOrMistypedFieldIsReportedByItsPath() throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(Goldens.status(Goldens.SLURM));
        ((ObjectNode) root.get("nodearrays").get(0)).remove("maxCount");
        ObjectNode gpuBucket = (ObjectNode) root.get("nodearrays").get(2).get("buckets").get(0);
        ((ObjectNode) gpuBucket.get("definition")).remove("machineType");
        ((ObjectNode) gpuBucket.get("virtualMachine")).put("vcpuCount", "96");
        ((ObjectNode) root.get("nodearrays").get(1).get("nodearray")).put("Interruptible", "yes");
        GantryException e = assertThrows(GantryException.class,
                () -> ClusterStatusParser.parse("hpc-prod", root.toString()));
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertEquals(List.of(
                Problem.of("nodearrays[0].maxCount", "missing; the ClusterStatus contract requires it (a whole number)"),
                Problem.of("nodearrays[1].nodearray.Interruptible", "must be true or false, got string \"yes\""),
                Problem.of("nodearrays[2].buckets[0].definition.machineType",
                        "missing; the ClusterStatus contract requires it (a non-empty string)"),
                Problem.of("nodearrays[2].buckets[0].virtualMachine.vcpuCount",
                        "must be a whole number of at least 0, got string \"96\"")), e.problems());
        assertTrue(e.getMessage().startsWith("CycleCloud's status for cluster 'hpc-prod' does not follow the "
                + "ClusterStatus contract of GET /clusters/{cluster}/status:\n  nodearrays[0].maxCount: missing"),
                e.getMessage());
        assertTrue(e.getMessage().endsWith("check that url is the address of CycleCloud 8 or later (its REST API, "
                + "not a proxy's login page)"), e.getMessage());
    }

    @Test
    void aBucketWithoutADefinitionNamesNoSizeAndIsReported() throws IOException {
        ObjectNode root = (ObjectNode) JSON.readTree(Goldens.status(Goldens.MULTIPLE));
        ((ObjectNode) root.get("nodearrays").get(1).get("buckets").get(1)).remove("definition");
        GantryException e = assertThrows(GantryException.class,
                () -> ClusterStatusParser.parse("multi", root.toString()));
        assertEquals(List.of(Problem.of("nodearrays[1].buckets[1].definition", "missing, so the bucket names no VM "
                + "size (definition.machineType) and cannot be mapped to a partition")), e.problems());
    }

    @Test
    void theTopLevelFieldsAreRequired() {
        GantryException e = assertThrows(GantryException.class, () -> ClusterStatusParser.parse("c", "{}"));
        assertEquals(List.of("maxCount", "maxCoreCount", "nodearrays"),
                e.problems().stream().map(Problem::path).toList());
        GantryException list = assertThrows(GantryException.class,
                () -> ClusterStatusParser.parse("c", "{\"maxCount\":1,\"maxCoreCount\":2,\"nodearrays\":[3]}"));
        assertEquals(List.of(Problem.of("nodearrays[0]", "must be an object (a node array's status), got number 3")),
                list.problems());
    }

    @Test
    void aBodyThatIsNotAJsonObjectIsARemoteError() {
        GantryException html = assertThrows(GantryException.class,
                () -> ClusterStatusParser.parse("c", "<html>Sign in</html>"));
        assertEquals(ErrorCode.REMOTE_ERROR, html.code());
        assertTrue(html.getMessage().startsWith("CycleCloud's status for cluster 'c' is not JSON ("), html.getMessage());
        GantryException array = assertThrows(GantryException.class, () -> ClusterStatusParser.parse("c", "[]"));
        assertEquals(List.of(Problem.of("", "must be a JSON object (ClusterStatus), got array []")), array.problems());
        GantryException empty = assertThrows(GantryException.class, () -> ClusterStatusParser.parse("c", ""));
        assertEquals(List.of(Problem.of("", "must be a JSON object (ClusterStatus), got nothing")), empty.problems());
    }

    @Test
    void countsMustBeWholeAndNotNegative() {
        String json = "{\"maxCount\":1.5,\"maxCoreCount\":-1,\"nodearrays\":[]}";
        GantryException e = assertThrows(GantryException.class, () -> ClusterStatusParser.parse("c", json));
        assertEquals(List.of(Problem.of("maxCount", "must be a whole number of at least 0, got number 1.5"),
                Problem.of("maxCoreCount", "must be a whole number of at least 0, got number -1")), e.problems());
        assertFalse(ClusterStatusParser.parse("c", "{\"maxCount\":0,\"maxCoreCount\":0,\"nodearrays\":[]}")
                .nodeArrays().iterator().hasNext());
    }
}
