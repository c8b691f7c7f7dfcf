// Classes with inheritance: a shape hierarchy with super calls, getters and setters, static
// members, private-by-convention fields, instanceof checks and polymorphic method calls.
var N = 100000;

class Shape {
  constructor(name) { this.name = name; this._moves = 0; Shape.created++; }
  get area() { return 0; }
  get perimeter() { return 0; }
  move(dx, dy) { this.x += dx; this.y += dy; this._moves++; return this; }
  get moves() { return this._moves; }
  describe() { return this.name + ":" + this.area.toFixed(2); }
  static compare(a, b) { return a.area - b.area; }
}
Shape.created = 0;

class Rect extends Shape {
  constructor(x, y, w, h) { super("rect"); this.x = x; this.y = y; this.w = w; this.h = h; }
  get area() { return this.w * this.h; }
  get perimeter() { return 2 * (this.w + this.h); }
  set width(v) { this.w = v < 0 ? 0 : v; }
  get width() { return this.w; }
}
class Square extends Rect {
  constructor(x, y, s) { super(x, y, s, s); this.name = "square"; }
  set width(v) { this.w = this.h = v; }
  get width() { return this.w; }
  describe() { return "[" + super.describe() + "]"; }
}
class Circle extends Shape {
  constructor(x, y, r) { super("circle"); this.x = x; this.y = y; this.r = r; }
  get area() { return 3.25 * this.r * this.r; }
  get perimeter() { return 6.5 * this.r; }
}
class Ring extends Circle {
  constructor(x, y, r, inner) { super(x, y, r); this.inner = inner; this.name = "ring"; }
  get area() { return super.area - 3.25 * this.inner * this.inner; }
}

var shapes = [];
for (var i = 0; i < N; i++) {
  var k = i % 4, s;
  if (k === 0) s = new Rect(i, -i, (i % 17) + 1, (i % 5) + 1);
  else if (k === 1) s = new Square(i, i, (i % 9) + 1);
  else if (k === 2) s = new Circle(-i, i, (i % 7) + 1);
  else s = new Ring(0, 0, (i % 11) + 2, 1);
  shapes.push(s);
}
var area = 0, perim = 0, rects = 0, circles = 0, desc = 0;
for (var round = 0; round < 15; round++) {
  for (var j = 0; j < shapes.length; j++) {
    var sh = shapes[j];
    sh.move(1, -1);
    if (sh instanceof Rect) { rects++; sh.width = sh.width + (round % 2 ? -1 : 1); }
    if (sh instanceof Circle) circles++;
    area += sh.area;
    perim += sh.perimeter;
    if (j % 97 === 0) desc += sh.describe().length;
  }
}
var sorted = shapes.slice(0, 5000).sort(Shape.compare);
console.log("created " + Shape.created + " rects " + rects + " circles " + circles);
console.log("area " + area.toFixed(2) + " perimeter " + perim.toFixed(2) + " desc " + desc);
console.log("smallest " + sorted[0].describe() + " largest " + sorted[sorted.length - 1].describe() + " moves " + shapes[3].moves);
