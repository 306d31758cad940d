package dev.gantry.backend.batch.fake;

import java.util.List;
import java.util.function.Function;

/** Maps a request to Batch's operation id and the route that serves it. */
final class Router {
    record Route(String operation, Function<FakeRequest, FakeResponse> handler) {
    }

    private final PoolRoutes pools;
    private final JobRoutes jobs;
    private final TaskRoutes tasks;
    private final FileRoutes files;
    private final ImageRoutes images;

    Router(PoolRoutes pools, JobRoutes jobs, TaskRoutes tasks, FileRoutes files, ImageRoutes images) {
        this.pools = pools;
        this.jobs = jobs;
        this.tasks = tasks;
        this.files = files;
        this.images = images;
    }

    /** The route, or null when the fake serves no such operation. */
    Route route(String method, List<String> s) {
        int n = s.size();
        if (n == 0) {
            return null;
        }
        String tail = s.get(n - 1);
        return switch (s.get(0)) {
            case "supportedimages" -> n == 1 && method.equals("GET")
                    ? new Route("Account_ListSupportedImages", images::list) : null;
            case "pools" -> pool(method, s, n, tail);
            case "jobs" -> job(method, s, n, tail);
            default -> null;
        };
    }

    private Route pool(String method, List<String> s, int n, String tail) {
        if (n == 1) {
            return method.equals("GET") ? new Route("Pool_List", pools::list)
                    : method.equals("POST") ? new Route("Pool_Add", pools::add) : null;
        }
        if (n == 2) {
            return switch (method) {
                case "GET" -> new Route("Pool_Get", pools::get);
                case "HEAD" -> new Route("Pool_Exists", pools::exists);
                case "DELETE" -> new Route("Pool_Delete", pools::delete);
                default -> null;
            };
        }
        if (n == 3 && method.equals("POST")) {
            return switch (tail) {
                case "enableautoscale" -> new Route("Pool_EnableAutoScale", pools::enableAutoScale);
                case "evaluateautoscale" -> new Route("Pool_EvaluateAutoScale", pools::evaluateAutoScale);
                case "removenodes" -> new Route("Pool_RemoveNodes", pools::removeNodes);
                default -> null;
            };
        }
        if (!s.get(2).equals("nodes")) {
            return null;
        }
        if (n == 3 && method.equals("GET")) {
            return new Route("ComputeNode_List", pools::listNodes);
        }
        if (n == 4 && method.equals("GET")) {
            return new Route("ComputeNode_Get", pools::getNode);
        }
        if (n >= 6 && s.get(4).equals("files")) {
            return method.equals("GET") ? new Route("File_GetFromComputeNode", r -> files.nodeFile(r, false))
                    : method.equals("HEAD") ? new Route("File_GetPropertiesFromComputeNode",
                            r -> files.nodeFile(r, true)) : null;
        }
        return null;
    }

    private Route job(String method, List<String> s, int n, String tail) {
        if (n == 1) {
            return method.equals("POST") ? new Route("Job_Add", jobs::add) : null;
        }
        if (n == 2) {
            return method.equals("GET") ? new Route("Job_Get", jobs::get)
                    : method.equals("DELETE") ? new Route("Job_Delete", jobs::delete) : null;
        }
        if (n == 3) {
            if (tail.equals("terminate") && method.equals("POST")) {
                return new Route("Job_Terminate", jobs::terminate);
            }
            if (tail.equals("addtaskcollection") && method.equals("POST")) {
                return new Route("Task_AddCollection", tasks::addCollection);
            }
            if (tail.equals("tasks")) {
                return method.equals("GET") ? new Route("Task_List", tasks::list)
                        : method.equals("POST") ? new Route("Task_Add", tasks::add) : null;
            }
            return null;
        }
        if (!s.get(2).equals("tasks")) {
            return null;
        }
        if (n == 4 && method.equals("GET")) {
            return new Route("Task_Get", tasks::get);
        }
        if (n == 5 && tail.equals("terminate") && method.equals("POST")) {
            return new Route("Task_Terminate", tasks::terminate);
        }
        if (n == 5 && tail.equals("subtasksinfo") && method.equals("GET")) {
            return new Route("Task_ListSubtasks", tasks::listSubtasks);
        }
        if (n >= 6 && s.get(4).equals("files")) {
            return method.equals("GET") ? new Route("File_GetFromTask", r -> files.taskFile(r, false))
                    : method.equals("HEAD") ? new Route("File_GetPropertiesFromTask", r -> files.taskFile(r, true))
                    : null;
        }
        return null;
    }
}
