import fs from 'node:fs';

const dir = 'work-cb';
fs.rmSync(dir, { recursive: true, force: true });
const log = (...a) => console.log(...a);

fs.mkdir(dir, (err) => {
  log('mkdir', err);
  fs.writeFile(`${dir}/a.txt`, 'alpha', (err) => {
    log('writeFile', err);
    fs.readFile(`${dir}/a.txt`, 'utf8', (err, data) => {
      log('readFile', err, data);
      fs.appendFile(`${dir}/a.txt`, '+beta', () => {
        fs.readFile(`${dir}/a.txt`, (err, buf) => {
          log('readFile buf', buf);
          fs.stat(`${dir}/a.txt`, (err, st) => {
            log('stat', err, st.size, st.isFile());
            fs.readdir(dir, (err, names) => {
              log('readdir', names);
              fs.rename(`${dir}/a.txt`, `${dir}/b.txt`, (err) => {
                log('rename', err);
                fs.readFile(`${dir}/a.txt`, (err) => {
                  log('missing', err.code, err.syscall, err.message);
                  fs.access(`${dir}/b.txt`, fs.constants.R_OK, (err) => {
                    log('access', err);
                    fs.exists(`${dir}/b.txt`, (yes) => {
                      log('exists', yes);
                      fs.open(`${dir}/b.txt`, 'r', (err, fd) => {
                        const buf = Buffer.alloc(5);
                        fs.read(fd, buf, 0, 5, 0, (err, n, b) => {
                          log('read', err, n, b === buf, buf.toString());
                          fs.close(fd, (err) => {
                            log('close', err);
                            fs.rm(dir, { recursive: true }, (err) => {
                              log('rm', err, fs.existsSync(dir));
                              ordering();
                            });
                          });
                        });
                      });
                    });
                  });
                });
              });
            });
          });
        });
      });
    });
  });
});
log('sync after mkdir call');

// Node serves fs callbacks and fs.promises from a thread pool, so which of two
// concurrent reads completes first is a race there; only the order relative to
// nextTick and microtasks is fixed, and the promise read starts after the callback.
function ordering() {
  fs.writeFileSync('order.txt', 'x');
  fs.readFile('order.txt', 'utf8', () => {
    log('order: fs callback');
    fs.promises.readFile('order.txt', 'utf8').then((d) => {
      log('order: promise result', d);
      fs.unlinkSync('order.txt');
    });
  });
  process.nextTick(() => log('order: nextTick'));
  Promise.resolve().then(() => log('order: microtask'));
  log('order: sync');
}
