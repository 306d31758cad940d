/**
 * The advisor: turns a {@link dev.gantry.api.Workload} into a {@link dev.gantry.api.Plan} by Azure's guidance for AI
 * workloads on IaaS.
 *
 * <p>Public surface: {@link dev.gantry.core.advisor.Advisor} (with {@link dev.gantry.core.advisor.AdvisorSettings}
 * from the configuration and {@link dev.gantry.model.PlanOverrides} from the command line) and
 * {@link dev.gantry.model.PlanJson}, the stable JSON form of a plan. Everything else is the search behind
 * them: the catalog index built once per catalog, the requirements resolved per workload, one search pass per
 * capacity type (each hard rule one {@link dev.gantry.core.advisor.Constraint} holding its check and its
 * explanation; the feasible rows ranked as {@link dev.gantry.core.advisor.Candidate}s by one comparator), and the
 * texts that explain the result. The rules are documented in {@code docs/advisor.md}.
 */
package dev.gantry.core.advisor;
