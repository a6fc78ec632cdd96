export type { AgentFileRoutesOptions, WellKnownSkillsOptions } from './agent-files/index.js';
export { agentFileRoutes, agentLinkHeader, wellKnownSkillsRoute } from './agent-files/index.js';
export type { KitAppOptions } from './app.js';
export { createKitApp, prefersMarkdown, viewerFor } from './app.js';
export { sendCached } from './http-cache.js';
export { isLoopbackHost, LOOPBACK_HOSTS, loopbackAllowedHosts } from './loopback.js';
export type { KitVariables, ResolveMiddlewareOptions } from './middleware.js';
export { bearerTokenUsers, clientIp, currentUser, resolveMiddleware, userResolution } from './middleware.js';
export { createRedisRateLimitStore } from './redis-rate-limit.js';
