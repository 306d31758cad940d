package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The instances of Uniform scale sets in {@link ArmFake}, following the Compute REST contract
 * ({@code VirtualMachineScaleSets_CreateOrUpdate}, {@code _DeleteInstances}, {@code _Delete};
 * {@code VirtualMachineScaleSetVMs_List} with {@code $expand=instanceView}, {@code _RunCommand}) and the Network
 * contract's scale set views ({@code NetworkInterfaces_ListVirtualMachineScaleSetNetworkInterfaces},
 * {@code PublicIPAddresses_ListVirtualMachineScaleSetPublicIPAddresses}). When a scale set PUT ends, the set holds
 * {@code sku.capacity} instances: new ones get the next instance IDs (Azure never reuses one), are named
 * {@code <set>_<instanceId>}, are in the set's zones, and each has its managed OS disk, a NIC per network
 * configuration (under the instance's path, as Azure reports them) and a public IP where the IP configuration asks
 * one; a lower capacity removes the highest instance IDs (the default scale-in policy, one zone). Deleting instances
 * lowers the capacity by as many; deleting the set deletes them all. What the set's profile references must exist, as
 * for a NIC of its own: the subnet and the network security group.
 */
final class ScaleSetsFake {
    static final String SET_TYPE = "Microsoft.Compute/virtualMachineScaleSets";
    static final String INSTANCE_TYPE = SET_TYPE + "/virtualMachines";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final ArmFake arm;
    private final Map<String, Integer> nextInstanceIds = new HashMap<>();

    ScaleSetsFake(ArmFake arm) {
        this.arm = arm;
    }

    /**
     * A problem with the set's VM profile (a 400), or null: a size and a login user are required, and what it
     * references must exist. Custom data is write-only, so it is not stored.
     */
    String profile(ObjectNode set) {
        JsonNode profile = set.path("properties").path("virtualMachineProfile");
        if (!profile.isObject()) {
            return null; // a Flexible set may have none; its VMs are then created on their own
        }
        if (set.path("sku").path("name").asText().isEmpty()) {
            return "Required parameter 'sku.name' is missing (null).";
        }
        if (profile.path("osProfile").path("adminUsername").asText().isEmpty()) {
            return "Required parameter 'osProfile.adminUsername' is missing (null).";
        }
        for (JsonNode nic : profile.path("networkProfile").path("networkInterfaceConfigurations")) {
            String group = nic.path("properties").path("networkSecurityGroup").path("id").asText("");
            if (!group.isEmpty() && arm.stored(group) == null) {
                return "Network security group '" + group + "' referenced by the scale set does not exist.";
            }
            for (JsonNode ip : nic.path("properties").path("ipConfigurations")) {
                String subnet = ip.path("properties").path("subnet").path("id").asText("");
                if (arm.stored(subnet) == null) {
                    return "Subnet '" + subnet + "' referenced by the scale set does not exist.";
                }
            }
        }
        JsonNode os = profile.path("osProfile");
        if (os.isObject()) {
            ((ObjectNode) os).remove(List.of("customData", "adminPassword"));
        }
        return null;
    }

    /** Brings the set's instances to its capacity, once its PUT has ended. */
    void reconcile(String setPath, ObjectNode set) {
        List<ObjectNode> instances = instances(setPath);
        long capacity = set.path("sku").path("capacity").asLong(0);
        while (instances.size() < capacity) {
            instances.add(create(setPath, set));
        }
        while (instances.size() > capacity) {
            remove(instances.remove(instances.size() - 1));
        }
    }

    /** {@code .../virtualMachineScaleSets/{set}/{action}}: {@code s} is the path's segments, from subscriptions. */
    void handle(HttpExchange exchange, String method, String path, String[] s, Map<String, String> query,
            JsonNode body) throws IOException {
        String setPath = "/" + String.join("/", List.of(s).subList(0, 8));
        ObjectNode set = arm.stored(setPath);
        if (set == null) {
            ArmFake.error(exchange, 404, "ResourceNotFound", "The Resource '" + SET_TYPE + "/" + s[7]
                    + "' under resource group was not found.");
            return;
        }
        String action = s[8].toLowerCase(Locale.ROOT);
        if (method.equals("GET") && action.equals("virtualmachines")) {
            List<JsonNode> answers = new ArrayList<>();
            for (ObjectNode instance : instances(setPath)) {
                ObjectNode answer = instance.deepCopy();
                if ("instanceView".equals(query.get("$expand"))) {
                    ArrayNode statuses = answer.withObjectProperty("properties").putObject("instanceView")
                            .putArray("statuses");
                    statuses.addObject().put("code", "ProvisioningState/" + instance.path("properties")
                            .path("provisioningState").asText().toLowerCase(Locale.ROOT));
                    statuses.addObject().put("code", "PowerState/" + arm.powerState(instance.path("name").asText()));
                }
                answers.add(answer);
            }
            arm.page(exchange, answers, query, 2);
        } else if (method.equals("GET") && action.equals("networkinterfaces")) {
            arm.page(exchange, owned(setPath, "Microsoft.Network/networkInterfaces"), query, 2);
        } else if (method.equals("GET") && action.equals("publicipaddresses")) {
            arm.page(exchange, owned(setPath, "Microsoft.Network/publicIPAddresses"), query, 2);
        } else if (method.equals("POST") && action.equals("delete")) {
            deleteInstances(exchange, setPath, set, body, query);
        } else {
            ArmFake.error(exchange, 405, "MethodNotAllowed", method + " is not supported on " + path);
        }
    }

    /** Deleting the set deletes its instances with their disks, NICs and public IPs. */
    void removeAll(String setPath) {
        instances(setPath).forEach(this::remove);
    }

    private void deleteInstances(HttpExchange exchange, String setPath, ObjectNode set, JsonNode body,
            Map<String, String> query) throws IOException {
        JsonNode ids = body == null ? JSON.missingNode() : body.path("instanceIds");
        if (!ids.isArray() || ids.isEmpty()) {
            ArmFake.error(exchange, 400, "InvalidParameter", "Required parameter 'instanceIds' is missing (null).");
            return;
        }
        List<ObjectNode> doomed = new ArrayList<>();
        for (JsonNode id : ids) {
            ObjectNode instance = arm.stored(setPath + "/virtualMachines/" + id.asText());
            if (instance == null) {
                ArmFake.error(exchange, 400, "InvalidParameter", "The provided instanceId " + id.asText()
                        + " is not an active Virtual Machine Scale Set VM instanceId.");
                return;
            }
            doomed.add(instance);
        }
        String status = arm.startOperation(SET_TYPE, set, query, 1, () -> {
            doomed.forEach(this::remove);
            ObjectNode sku = set.withObjectProperty("sku");
            sku.put("capacity", Math.max(0, sku.path("capacity").asLong() - doomed.size()));
        });
        exchange.getResponseHeaders().add("Azure-AsyncOperation", status);
        ArmFake.send(exchange, 202, null);
    }

    private ObjectNode create(String setPath, ObjectNode set) {
        String setName = set.path("name").asText();
        int number = nextInstanceIds.merge(setPath.toLowerCase(Locale.ROOT), 1, Integer::sum) - 1;
        String instanceId = Integer.toString(number);
        String path = setPath + "/virtualMachines/" + instanceId;
        String name = setName + "_" + instanceId;
        String region = set.path("location").asText();
        JsonNode profile = set.path("properties").path("virtualMachineProfile");
        ObjectNode instance = JSON.createObjectNode();
        instance.put("id", path).put("name", name).put("instanceId", instanceId).put("type", INSTANCE_TYPE)
                .put("location", region);
        instance.putObject("sku").put("name", set.path("sku").path("name").asText()).put("tier", "Standard");
        instance.set("zones", set.path("zones").deepCopy());
        if (set.has("tags")) {
            instance.set("tags", set.path("tags").deepCopy());
        }
        ObjectNode properties = instance.putObject("properties");
        properties.put("latestModelApplied", true).put("vmId", UUID.randomUUID().toString())
                .put("provisioningState", "Succeeded").put("timeCreated", "2026-11-29T12:00:00+00:00");
        ObjectNode os = properties.putObject("osProfile");
        // Azure's computer names: the prefix and the instance ID in six base-36 digits.
        os.put("computerName", profile.path("osProfile").path("computerNamePrefix").asText()
                + String.format("%6s", Long.toString(number, 36)).replace(' ', '0'));
        os.put("adminUsername", profile.path("osProfile").path("adminUsername").asText());
        os.set("linuxConfiguration", profile.path("osProfile").path("linuxConfiguration").deepCopy());
        String diskName = setName + "_" + instanceId + "_OsDisk_1_" + UUID.randomUUID().toString().replace("-", "");
        String diskPath = setPath.substring(0, setPath.indexOf("/providers/")) + "/providers/Microsoft.Compute/disks/"
                + diskName;
        ObjectNode storage = properties.putObject("storageProfile");
        storage.set("imageReference", profile.path("storageProfile").path("imageReference").deepCopy());
        storage.putObject("osDisk").put("name", diskName).put("createOption", "FromImage")
                .putObject("managedDisk").put("id", diskPath);
        ObjectNode disk = JSON.createObjectNode();
        disk.put("id", diskPath).put("name", diskName).put("type", "Microsoft.Compute/disks").put("location", region)
                .put("managedBy", path);
        disk.putObject("properties").put("provisioningState", "Succeeded");
        arm.store(diskPath, disk);
        ArrayNode references = properties.putObject("networkProfile").putArray("networkInterfaces");
        for (JsonNode configuration : profile.path("networkProfile").path("networkInterfaceConfigurations")) {
            String nicPath = path + "/networkInterfaces/" + configuration.path("name").asText();
            references.addObject().put("id", nicPath);
            arm.store(nicPath, nic(nicPath, path, name, region, configuration));
        }
        arm.store(path, instance);
        return instance;
    }

    private ObjectNode nic(String nicPath, String instancePath, String instanceName, String region,
            JsonNode configuration) {
        String nicName = nicPath.substring(nicPath.lastIndexOf('/') + 1);
        ObjectNode nic = JSON.createObjectNode();
        nic.put("id", nicPath).put("name", nicName).put("type", "Microsoft.Network/networkInterfaces")
                .put("location", region);
        ObjectNode properties = nic.putObject("properties");
        JsonNode wanted = configuration.path("properties");
        properties.put("provisioningState", "Succeeded").put("primary", wanted.path("primary").asBoolean(true))
                .put("enableAcceleratedNetworking", wanted.path("enableAcceleratedNetworking").asBoolean(false));
        properties.putObject("virtualMachine").put("id", instancePath);
        if (wanted.has("networkSecurityGroup")) {
            properties.set("networkSecurityGroup", wanted.path("networkSecurityGroup").deepCopy());
        }
        ArrayNode ipConfigurations = properties.putArray("ipConfigurations");
        for (JsonNode ip : wanted.path("ipConfigurations")) {
            String ipPath = nicPath + "/ipConfigurations/" + ip.path("name").asText();
            ObjectNode stored = ipConfigurations.addObject();
            stored.put("id", ipPath).put("name", ip.path("name").asText());
            ObjectNode ipProperties = stored.putObject("properties");
            ipProperties.put("primary", ip.path("properties").path("primary").asBoolean(true))
                    .put("privateIPAddress", arm.privateAddress(instanceName))
                    .put("privateIPAllocationMethod", "Dynamic");
            ipProperties.set("subnet", ip.path("properties").path("subnet").deepCopy());
            JsonNode publicConfiguration = ip.path("properties").path("publicIPAddressConfiguration");
            if (publicConfiguration.isObject()) {
                String publicPath = ipPath + "/publicIPAddresses/" + publicConfiguration.path("name").asText();
                ObjectNode publicIp = JSON.createObjectNode();
                publicIp.put("id", publicPath).put("name", publicConfiguration.path("name").asText())
                        .put("type", "Microsoft.Network/publicIPAddresses").put("location", region);
                publicIp.putObject("sku").put("name", publicConfiguration.path("sku").path("name").asText("Basic"));
                publicIp.putObject("properties").put("ipAddress", arm.publicAddress())
                        .put("provisioningState", "Succeeded").putObject("ipConfiguration").put("id", ipPath);
                arm.store(publicPath, publicIp);
                ipProperties.putObject("publicIPAddress").put("id", publicPath);
            }
        }
        return nic;
    }

    /** The set's instances, lowest instance ID first. */
    private List<ObjectNode> instances(String setPath) {
        String prefix = (setPath + "/virtualMachines/").toLowerCase(Locale.ROOT);
        List<ObjectNode> instances = new ArrayList<>();
        for (ObjectNode resource : arm.all()) {
            if (INSTANCE_TYPE.equals(resource.path("type").asText())
                    && resource.path("id").asText().toLowerCase(Locale.ROOT).startsWith(prefix)) {
                instances.add(resource);
            }
        }
        instances.sort(java.util.Comparator.comparingInt(i -> i.path("instanceId").asInt()));
        return instances;
    }

    /** The resources of this type under the set's instances (their NICs or public IPs). */
    private List<JsonNode> owned(String setPath, String type) {
        String prefix = (setPath + "/virtualMachines/").toLowerCase(Locale.ROOT);
        List<JsonNode> owned = new ArrayList<>();
        for (ObjectNode resource : arm.all()) {
            if (type.equals(resource.path("type").asText())
                    && resource.path("id").asText().toLowerCase(Locale.ROOT).startsWith(prefix)) {
                owned.add(resource.deepCopy());
            }
        }
        return owned;
    }

    /** An instance goes with its OS disk, NICs and public IPs, which Azure made for it and deletes with it. */
    private void remove(ObjectNode instance) {
        String path = instance.path("id").asText();
        String prefix = path.toLowerCase(Locale.ROOT) + "/";
        for (ObjectNode resource : arm.all()) {
            if (resource.path("id").asText().toLowerCase(Locale.ROOT).startsWith(prefix)) {
                arm.forget(resource.path("id").asText());
            }
        }
        arm.forget(instance.path("properties").path("storageProfile").path("osDisk").path("managedDisk").path("id")
                .asText());
        arm.forget(path);
    }
}
