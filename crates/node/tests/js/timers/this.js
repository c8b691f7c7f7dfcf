// Timers call their callback with the Timeout or Immediate object as `this`, as node does:
// an interval can clear itself through `this`, and the object survives an image taken
// while the timer is pending (the image-every-turn mode makes one before each timer fires).
// Each timer is set by the previous one's callback, so the order does not depend on timing.
const outer = this;
const immediate = setImmediate(function () {
  console.log("immediate", this === immediate, typeof this.ref);
  let n = 0;
  const interval = setInterval(function () {
    n++;
    console.log("interval", n, this === interval, typeof this.refresh);
    if (n === 2) {
      clearInterval(this);
      const timeout = setTimeout(function (a, b) {
        console.log("timeout", this === timeout, a, b, typeof this.hasRef);
        setTimeout(() => {
          console.log("arrow keeps its this:", this === timeout, outer === module.exports);
          setTimeout(function () {
            "use strict";
            console.log("strict", this === undefined, typeof this);
          }, 1);
        }, 1);
      }, 5, "x", "y");
    }
  }, 1);
});
