var a = null, y = 1;
var x = [y ? a?.b() : 2, y ? a?.() : 3, a?.b.c()];
