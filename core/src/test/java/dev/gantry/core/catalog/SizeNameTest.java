package dev.gantry.core.catalog;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvFileSource;
import org.junit.jupiter.params.provider.ValueSource;

class SizeNameTest {

    @ParameterizedTest(name = "{0}")
    @CsvFileSource(resources = "/catalog/size-names.csv")
    void parsesRealNamesFromTheCatalog(String name, String tier, String family, int number, String constrained,
                                       String features, String accelerator, String version, boolean promo,
                                       String otherParts, int usable, boolean rdma, boolean arm64, boolean amd) {
        SizeName parsed = SizeName.parse(name).orElseThrow();
        assertEquals(tier, parsed.tier());
        assertEquals(family, parsed.family());
        assertEquals(number, parsed.number());
        assertEquals(blank(constrained) ? "" : constrained,
                parsed.constrainedVcpus().isPresent() ? Integer.toString(parsed.constrainedVcpus().getAsInt()) : "");
        StringBuilder letters = new StringBuilder();
        parsed.features().forEach(letters::append);
        assertEquals(blank(features) ? "" : features, letters.toString());
        assertEquals(blank(accelerator) ? Optional.empty() : Optional.of(accelerator), parsed.accelerator());
        assertEquals(blank(version) ? "" : version,
                parsed.version().isPresent() ? Integer.toString(parsed.version().getAsInt()) : "");
        assertEquals(promo, parsed.promo());
        assertEquals(blank(otherParts) ? List.of() : List.of(otherParts.split(" ")), parsed.otherParts());
        assertEquals(usable, parsed.usableVcpus());
        assertEquals(rdma, parsed.rdma());
        assertEquals(arm64, parsed.arm64());
        assertEquals(amd, parsed.amdCpu());
    }

    @Test
    void splitsFamilyIntoSeriesLetterAndSubFamily() {
        SizeName ncc = SizeName.parse("Standard_NCC40ads_H100_v5").orElseThrow();
        assertEquals('N', ncc.seriesLetter());
        assertEquals("CC", ncc.subFamily());
        assertTrue(ncc.gpuFamily());
        SizeName e = SizeName.parse("Standard_E8-2ads_v5").orElseThrow();
        assertEquals("", e.subFamily());
        assertFalse(e.gpuFamily());
        assertTrue(e.localDisk());
        assertTrue(e.premiumStorage());
        assertFalse(e.isolated());
        assertTrue(SizeName.parse("Standard_E104id_v5").orElseThrow().isolated());
        assertTrue(SizeName.parse("Standard_M128ms_v2").orElseThrow().memoryIntensive());
        assertFalse(SizeName.parse("Standard_NP10s").orElseThrow().gpuFamily());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "ND96isr_H100_v5", "Premium_D2_v5", "Standard_", "Standard_nd96", "Standard_ND",
            "Standard_D2__v5", "Standard_D2s_v5_"})
    void rejectsNamesOutsideTheConvention(String name) {
        assertEquals(Optional.empty(), SizeName.parse(name));
        GantryException error = assertThrows(GantryException.class, () -> SizeName.parseOrThrow(name));
        assertEquals(ErrorCode.CATALOG_INVALID, error.code());
        assertTrue(error.getMessage().contains("'" + name + "'"), error.getMessage());
    }

    @Test
    void everyInstanceTypeInTheSkyPilotCatalogParses() throws IOException {
        List<String> failed = new ArrayList<>();
        TreeSet<String> families = new TreeSet<>();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(
                getClass().getResourceAsStream("/catalog/skypilot-azure-vms.csv"), StandardCharsets.UTF_8))) {
            reader.readLine();
            String line;
            while ((line = reader.readLine()) != null) {
                String name = line.substring(0, line.indexOf(','));
                SizeName.parse(name).ifPresentOrElse(parsed -> families.add(parsed.family()), () -> failed.add(name));
            }
        }
        assertEquals(List.of(), failed);
        assertTrue(families.containsAll(List.of("NC", "NCC", "ND", "NV", "NG", "E", "EC", "M", "F", "FX", "D", "DC",
                "DS", "B", "HB", "A")), families.toString());
    }

    private static boolean blank(String text) {
        return text == null || text.isEmpty();
    }
}
