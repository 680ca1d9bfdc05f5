/**
 * Interpenetration checking: CCD primitives, micro-backtracking to the first
 * contact, exact triangle tests, flat BVHs, broad phase, contact reduction and
 * the per-frame / whole-clip checker.
 */
export { ccdVertexTriangle, ccdEdgeEdge, ccdVertexTriangleHit, ccdEdgeEdgeHit, ccdQueryFlat, type CcdHit, type CcdOptions } from './ccd';
export { orient3d, orient2d } from './predicates';
export { triTriOverlap, triTriIntersect, lastTriTriCoplanar } from './tritri';
export { TriangleBVH, NODE_BYTES } from './bvh';
export { firstContact, earliestPossibleContact, advanceFeature, featurePoint, FEATURE_EDGE_EDGE, FEATURE_VERTEX_TRIANGLE, CCD_REACH } from './backtrack';
export { forEachLeafPair, forEachLeafNodePair, rootsOverlap, pointInMesh, pointInParts, closestPointOnMesh, closestPointOnTriangle } from './query';
export { convexPolyhedraIntersect, convexFromMesh, updateConvexPlanes, isConvexMesh, type ConvexPolyhedron } from './convex';
export { PartSweepAndPrune, settingsCollide, partPairIgnored } from './sap';
export { reduceContacts } from './contacts';
export {
  CollisionScene, checkFrame, checkClip, isClosed, CheckAbortedError,
  type CheckOptions, type CheckReport, type Finding, type FindingKind, type FindingSide, type FrameContact, type PartInfo, type CollisionObject,
} from './scene';
export { verticesInBox } from './query';
export { signedDistance, vertexTriangles, closestPointOnTriangleRegion, featurePseudoNormal, REGION_FACE, type VertexTriangles } from './signed';
