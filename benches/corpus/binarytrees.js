// Binary trees (the Computer Language Benchmarks Game kernel), written from its description:
// allocate and walk many perfect binary trees of varying depth, one long-lived tree beside.
var MAX_DEPTH = 15;

function TreeNode(left, right) { this.left = left; this.right = right; }
function bottomUp(depth) {
  return depth > 0 ? new TreeNode(bottomUp(depth - 1), bottomUp(depth - 1)) : new TreeNode(null, null);
}
function check(node) { return node.left === null ? 1 : 1 + check(node.left) + check(node.right); }

var minDepth = 4;
var maxDepth = Math.max(minDepth + 2, MAX_DEPTH);
var stretch = maxDepth + 1;
console.log("stretch tree of depth " + stretch + "\t check: " + check(bottomUp(stretch)));
var longLived = bottomUp(maxDepth);
for (var d = minDepth; d <= maxDepth; d += 2) {
  var iterations = 1 << (maxDepth - d + minDepth);
  var sum = 0;
  for (var i = 0; i < iterations; i++) sum += check(bottomUp(d));
  console.log(iterations + "\t trees of depth " + d + "\t check: " + sum);
}
console.log("long lived tree of depth " + maxDepth + "\t check: " + check(longLived));
