(async function () {
  for (await using _1 = null, _2 = 1; false; ) {}
});
