/// The live page `vision-tasks serve` answers `GET /` with (docs/SERVER.md): pick a task, use the
/// camera or drop an image, and see the server's results drawn over it.
enum ServerPage {
    /// The page's HTML, CSS and JavaScript in one document.
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>VisionTasks live</title>
        <link rel="icon" href="data:,">
        <style>
          :root { color-scheme: dark; --fg: #e8e8e8; --dim: #9a9a9a; --bg: #16181b; --panel: #22252a;
                  --accent: #4fc3f7; }
          * { box-sizing: border-box; }
          [hidden] { display: none !important; }
          body { margin: 0; font: 14px/1.4 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
          header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 10px 16px;
                   background: var(--panel); border-bottom: 1px solid #333; }
          header h1 { margin: 0; font-size: 17px; font-weight: 600; }
          header h1 span { color: var(--dim); font-weight: 400; }
          label { color: var(--dim); }
          select, input, button { font: inherit; color: var(--fg); background: #2d3137; border: 1px solid #444;
                                  border-radius: 4px; padding: 4px 8px; }
          button { cursor: pointer; }
          button:hover { border-color: var(--accent); }
          button.on { background: #1f4a5c; border-color: var(--accent); }
          input[type=number] { width: 6.5em; }
          input[type=text] { width: 9em; }
          #options { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 14px; min-height: 46px;
                     padding: 8px 16px; border-bottom: 1px solid #333; }
          #options fieldset { display: contents; border: 0; }
          #options fieldset[hidden] { display: none; }
          #options label { display: inline-flex; align-items: center; gap: 5px; font-size: 13px; }
          main { display: flex; flex-wrap: wrap; gap: 16px; padding: 16px; align-items: flex-start; }
          #stage { position: relative; display: inline-block; min-width: 320px; min-height: 240px; max-width: 100%;
                   background: #0d0e10; border: 2px dashed #3a3f46; border-radius: 6px; }
          #stage.dragging { border-color: var(--accent); }
          #stage video, #stage img { display: block; max-width: min(100%, 1280px); max-height: 78vh; }
          #overlay { position: absolute; left: 0; top: 0; width: 100%; height: 100%; pointer-events: none; }
          #hint { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center;
                  padding: 24px; text-align: center; color: var(--dim); }
          #side { flex: 1 1 260px; min-width: 240px; }
          #stats { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 0 0 12px; }
          #stats dt { color: var(--dim); }
          #stats dd { margin: 0; font-variant-numeric: tabular-nums; }
          #error { color: #ff8a80; white-space: pre-wrap; }
          #details { margin: 0; padding: 8px; background: var(--panel); border-radius: 4px; white-space: pre-wrap;
                     font: 12px/1.45 ui-monospace, monospace; max-height: 60vh; overflow: auto; }
        </style>
        </head>
        <body>
        <header>
          <h1>VisionTasks <span>live</span></h1>
          <label>Task <select id="task"></select></label>
          <button id="camera" type="button">Camera</button>
          <button id="stop" type="button">Stop</button>
          <label>Image <input id="file" type="file" accept="image/jpeg,image/png,image/*"></label>
        </header>
        <div id="options"></div>
        <main>
          <div id="stage" title="Drop an image here">
            <video id="video" muted playsinline hidden></video>
            <img id="still" alt="the image sent" hidden>
            <canvas id="overlay" width="640" height="480"></canvas>
            <div id="hint">Click Camera, or drop a JPEG or PNG here</div>
          </div>
          <div id="side">
            <dl id="stats">
              <dt>results</dt><dd id="count">0</dd>
              <dt>latency</dt><dd id="latency">–</dd>
              <dt>rate</dt><dd id="fps">–</dd>
              <dt>image</dt><dd id="size">–</dd>
              <dt>errors</dt><dd id="errorCount">0</dd>
              <dt>last error</dt><dd id="error">–</dd>
            </dl>
            <pre id="details">No result yet.</pre>
          </div>
        </main>
        <canvas id="grab" hidden></canvas>
        <script>
        'use strict';
        (function () {
          // Landmark index pairs, as the library's connection sets (PoseLandmarker.poseLandmarks,
          // HandLandmarker.handConnections, FaceLandmarker's contours and irises), flat: start, end, ...
          const POSE = [0, 1, 1, 2, 2, 3, 3, 7, 0, 4, 4, 5, 5, 6, 6, 8, 9, 10, 11, 12, 11, 13, 13, 15, 15, 17, 15, 19,
            15, 21, 17, 19, 12, 14, 14, 16, 16, 18, 16, 20, 16, 22, 18, 20, 11, 23, 12, 24, 23, 24, 23, 25, 24, 26,
            25, 27, 26, 28, 27, 29, 28, 30, 29, 31, 30, 32, 27, 31, 28, 32];
          const HAND = [0, 1, 0, 5, 9, 13, 13, 17, 5, 9, 0, 17, 1, 2, 2, 3, 3, 4, 5, 6, 6, 7, 7, 8, 9, 10, 10, 11,
            11, 12, 13, 14, 14, 15, 15, 16, 17, 18, 18, 19, 19, 20];
          const FACE_LIPS = [61, 146, 146, 91, 91, 181, 181, 84, 84, 17, 17, 314, 314, 405, 405, 321, 321, 375, 375,
            291, 61, 185, 185, 40, 40, 39, 39, 37, 37, 0, 0, 267, 267, 269, 269, 270, 270, 409, 409, 291, 78, 95, 95,
            88, 88, 178, 178, 87, 87, 14, 14, 317, 317, 402, 402, 318, 318, 324, 324, 308, 78, 191, 191, 80, 80, 81, 81,
            82, 82, 13, 13, 312, 312, 311, 311, 310, 310, 415, 415, 308];
          const FACE_LEFT_EYE = [263, 249, 249, 390, 390, 373, 373, 374, 374, 380, 380, 381, 381, 382, 382, 362, 263,
            466, 466, 388, 388, 387, 387, 386, 386, 385, 385, 384, 384, 398, 398, 362];
          const FACE_LEFT_EYEBROW = [276, 283, 283, 282, 282, 295, 295, 285, 300, 293, 293, 334, 334, 296, 296, 336];
          const FACE_RIGHT_EYE = [33, 7, 7, 163, 163, 144, 144, 145, 145, 153, 153, 154, 154, 155, 155, 133, 33, 246,
            246, 161, 161, 160, 160, 159, 159, 158, 158, 157, 157, 173, 173, 133];
          const FACE_RIGHT_EYEBROW = [46, 53, 53, 52, 52, 65, 65, 55, 70, 63, 63, 105, 105, 66, 66, 107];
          const FACE_OVAL = [10, 338, 338, 297, 297, 332, 332, 284, 284, 251, 251, 389, 389, 356, 356, 454, 454, 323,
            323, 361, 361, 288, 288, 397, 397, 365, 365, 379, 379, 378, 378, 400, 400, 377, 377, 152, 152, 148, 148,
            176, 176, 149, 149, 150, 150, 136, 136, 172, 172, 58, 58, 132, 132, 93, 93, 234, 234, 127, 127, 162, 162,
            21, 21, 54, 54, 103, 103, 67, 67, 109, 109, 10];
          const FACE_CONTOURS = [].concat(FACE_LIPS, FACE_LEFT_EYE, FACE_LEFT_EYEBROW, FACE_RIGHT_EYE,
            FACE_RIGHT_EYEBROW, FACE_OVAL);
          const FACE_IRISES = [474, 475, 475, 476, 476, 477, 477, 474, 469, 470, 470, 471, 471, 472, 472, 469];

          // The colours of the CLI's --annotate (RGBColor in the Imaging module).
          const C = {
            black: 'rgb(0,0,0)', white: 'rgb(255,255,255)', red: 'rgb(255,0,0)', green: 'rgb(0,255,0)',
            blue: 'rgb(0,0,255)', yellow: 'rgb(255,255,0)', cyan: 'rgb(0,255,255)', magenta: 'rgb(255,0,255)',
            orange: 'rgb(255,140,0)', grey: 'rgb(176,176,176)',
          };

          // Each task's query parameters (docs/SERVER.md): empty fields are left out, so the server's
          // defaults apply; booleans are sent as true when ticked.
          const num = (name, placeholder, extra) => Object.assign({name, kind: 'number', placeholder}, extra || {});
          const unit = {min: 0, max: 1, step: 0.05};
          const several = {min: 1, max: 100, step: 1};
          const TASKS = {
            'pose': [num('num-poses', '1', several), num('min-pose-detection-confidence', '0.5', unit),
              num('min-pose-presence-confidence', '0.5', unit), num('min-tracking-confidence', '0.5', unit),
              {name: 'segmentation', kind: 'bool'}],
            'hands': [num('num-hands', '1', Object.assign({value: '2'}, several)),
              num('min-hand-detection-confidence', '0.5', unit), num('min-hand-presence-confidence', '0.5', unit),
              num('min-tracking-confidence', '0.5', unit)],
            'objects': [num('max-results', 'all', Object.assign({value: '5'}, several)),
              num('score-threshold', '0', Object.assign({value: '0.4'}, unit)),
              {name: 'allow', kind: 'text', placeholder: 'person,dog'}, {name: 'deny', kind: 'text', placeholder: ''},
              {name: 'locale', kind: 'text', placeholder: 'en'}],
            'faces': [num('min-detection-confidence', '0.5', unit), num('min-suppression-threshold', '0.3', unit)],
            'face-landmarks': [num('num-faces', '1', several), num('min-face-detection-confidence', '0.5', unit),
              num('min-face-presence-confidence', '0.5', unit), num('min-tracking-confidence', '0.5', unit),
              {name: 'blendshapes', kind: 'bool'}, {name: 'transformation-matrixes', kind: 'bool'}],
            'segment': [{name: 'category-mask', kind: 'bool'}, {name: 'no-confidence-masks', kind: 'bool'}],
          };

          const $ = (id) => document.getElementById(id);
          const taskSelect = $('task'), optionsBox = $('options'), video = $('video'), still = $('still');
          const overlay = $('overlay'), grab = $('grab'), stage = $('stage'), hint = $('hint');
          const octx = overlay.getContext('2d'), gctx = grab.getContext('2d');

          // What the browser test reads.
          const vt = window.visionTasks = {
            lastResult: null, lastTask: null, lastQuery: null, lastFrameDataURL: null, lastFrameType: null,
            frameCount: 0, errors: [], latencyMs: null, fps: null, mode: 'idle',
          };
          document.body.dataset.results = '0';

          // The token, from ?token=T or #token=T, read at each call (the fragment may change).
          const params = new URLSearchParams(location.search);
          const token = () => params.get('token') || new URLSearchParams(location.hash.replace(/^#/, '')).get('token');

          const state = {
            task: 'pose', mode: 'idle', inFlight: false, stream: null, image: null, imageURL: null,
            resendImage: false, lastAnswerAt: 0, interval: 0,
          };

          // ---- options ----
          const fieldsets = {};
          for (const task of Object.keys(TASKS)) {
            const option = document.createElement('option');
            option.value = task;
            option.textContent = task;
            taskSelect.appendChild(option);
            const fieldset = document.createElement('fieldset');
            fieldset.dataset.task = task;
            for (const spec of TASKS[task]) {
              const label = document.createElement('label');
              const input = document.createElement('input');
              input.name = spec.name;
              input.dataset.option = spec.name;
              if (spec.kind === 'bool') {
                input.type = 'checkbox';
                label.append(input, spec.name);
              } else {
                input.type = spec.kind === 'number' ? 'number' : 'text';
                for (const key of ['min', 'max', 'step', 'placeholder', 'value']) {
                  if (spec[key] !== undefined) input[key] = spec[key];
                }
                label.append(spec.name, input);
              }
              input.addEventListener('change', optionsChanged);
              fieldset.appendChild(label);
            }
            optionsBox.appendChild(fieldset);
            fieldsets[task] = fieldset;
          }

          // The masks come as PNG images only when asked for (the server's mask-images option): for
          // segment always, for pose when segmentation is ticked.
          function withMaskImages(task, q) {
            const wanted = task === 'segment' || (task === 'pose' && /(^|&)segmentation=true(&|$)/.test(q));
            return wanted ? (q ? q + '&' : '') + 'mask-images=true' : q;
          }

          function query(task) {
            const parts = [];
            for (const input of fieldsets[task].querySelectorAll('input')) {
              const name = input.dataset.option;
              if (input.type === 'checkbox') {
                if (input.checked) parts.push(name + '=true');
              } else if (input.value.trim() !== '') {
                parts.push(name + '=' + encodeURIComponent(input.value.trim()));
              }
            }
            return parts.join('&');
          }

          function selectTask(task) {
            if (!TASKS[task]) return;
            state.task = task;
            taskSelect.value = task;
            for (const name of Object.keys(fieldsets)) fieldsets[name].hidden = name !== task;
            optionsChanged();
          }

          function optionsChanged() {
            resetRate();
            if (state.mode === 'image') {
              state.resendImage = true;
              pump();
            }
          }

          taskSelect.addEventListener('change', () => selectTask(taskSelect.value));

          // ---- requests ----
          function headers(type) {
            const h = {};
            if (type) h['Content-Type'] = type;
            const t = token();
            if (t) h['Authorization'] = 'Bearer ' + t;
            return h;
          }

          function dataURL(blob) {
            return new Promise((resolve) => {
              const reader = new FileReader();
              reader.onload = () => resolve(reader.result);
              reader.onerror = () => resolve(null);
              reader.readAsDataURL(blob);
            });
          }

          // Exactly one request in flight. When it is answered the camera's current frame is captured and
          // sent, so frames shown meanwhile are skipped (newest wins); a still image is sent again only when
          // the task or an option changed.
          function pump() {
            if (state.inFlight) return;
            if (state.mode === 'camera') {
              captureAndSend();
            } else if (state.mode === 'image' && state.resendImage && state.image) {
              state.resendImage = false;
              send(state.image);
            }
          }

          function captureAndSend() {
            if (video.readyState < 2 || !video.videoWidth) {
              setTimeout(pump, 50);
              return;
            }
            state.inFlight = true;
            if (grab.width !== video.videoWidth) grab.width = video.videoWidth;
            if (grab.height !== video.videoHeight) grab.height = video.videoHeight;
            gctx.drawImage(video, 0, 0, grab.width, grab.height);
            grab.toBlob((blob) => {
              if (!blob || state.mode !== 'camera') {
                state.inFlight = false;
                if (state.mode === 'camera') setTimeout(pump, 100);
                return;
              }
              send(blob);
            }, 'image/jpeg', 0.9);
          }

          async function send(blob) {
            state.inFlight = true;
            const task = state.task;
            const q = withMaskImages(task, query(task));
            const type = blob.type || 'image/jpeg';
            const url = '/v1/' + task + (q ? '?' + q : '');
            const frame = dataURL(blob);
            const started = performance.now();
            let delay = 0;
            try {
              const response = await fetch(url, {method: 'POST', headers: headers(type), body: blob});
              const text = await response.text();
              const latency = performance.now() - started;
              let body = null;
              try { body = JSON.parse(text); } catch (e) { body = null; }
              if (response.ok && body && typeof body === 'object') {
                received(task, q, body, await frame, type, latency);
              } else {
                const error = (body && body.error) || {};
                failed(response.status, error.code || 'http' + response.status, error.message || text.slice(0, 300));
                delay = 500;
              }
            } catch (e) {
              failed(0, 'network', String(e && e.message || e));
              delay = 1000;
            } finally {
              state.inFlight = false;
              if (state.mode === 'camera') setTimeout(pump, delay); else pump();
            }
          }

          function received(task, q, result, frameURL, type, latency) {
            const now = performance.now();
            if (state.lastAnswerAt) {
              const gap = now - state.lastAnswerAt;
              state.interval = state.interval ? state.interval * 0.8 + gap * 0.2 : gap;
            }
            state.lastAnswerAt = now;
            vt.lastResult = result;
            vt.lastTask = task;
            vt.lastQuery = q;
            vt.lastFrameDataURL = frameURL;
            vt.lastFrameType = type;
            vt.latencyMs = latency;
            vt.fps = state.interval ? 1000 / state.interval : null;
            vt.frameCount += 1;
            draw(task, result);
            document.body.dataset.results = String(vt.frameCount);
            $('count').textContent = String(vt.frameCount);
            $('latency').textContent = latency.toFixed(0) + ' ms';
            $('fps').textContent = vt.fps ? vt.fps.toFixed(1) + ' results/s' : '–';
            $('size').textContent = result.width + ' × ' + result.height;
          }

          function failed(status, code, message) {
            const entry = {status, code, message, at: new Date().toISOString()};
            vt.errors.push(entry);
            if (vt.errors.length > 50) vt.errors.shift();
            let text = code + (status ? ' (HTTP ' + status + ')' : '') + ': ' + message;
            if (status === 401) text += '\nOpen this page as /?token=YOUR_TOKEN (or /#token=YOUR_TOKEN).';
            $('error').textContent = text;
            $('errorCount').textContent = String(vt.errors.length);
            document.body.dataset.errors = String(vt.errors.length);
          }

          function resetRate() {
            state.lastAnswerAt = 0;
            state.interval = 0;
          }

          // ---- camera and images ----
          async function startCamera() {
            if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
              failed(0, 'camera', 'no camera API here (browsers allow it on https:// or http://localhost only)');
              return;
            }
            try {
              const stream = await navigator.mediaDevices.getUserMedia({video: true});
              stopCamera();
              state.stream = stream;
              video.srcObject = stream;
              await video.play();
              setMode('camera');
              pump();
            } catch (e) {
              failed(0, 'camera', String(e && e.message || e));
            }
          }

          function stopCamera() {
            if (state.stream) for (const track of state.stream.getTracks()) track.stop();
            state.stream = null;
            video.srcObject = null;
          }

          function setMode(mode) {
            state.mode = mode;
            vt.mode = mode;
            video.hidden = mode !== 'camera';
            still.hidden = mode !== 'image';
            hint.hidden = mode !== 'idle';
            $('camera').classList.toggle('on', mode === 'camera');
            resetRate();
            if (mode === 'idle') octx.clearRect(0, 0, overlay.width, overlay.height);
          }

          async function useFile(file) {
            if (!file) return;
            let blob = file;
            if (file.type !== 'image/jpeg' && file.type !== 'image/png') {
              // Anything else the browser can decode goes as PNG.
              try {
                const bitmap = await createImageBitmap(file);
                grab.width = bitmap.width;
                grab.height = bitmap.height;
                gctx.drawImage(bitmap, 0, 0);
                blob = await new Promise((resolve) => grab.toBlob(resolve, 'image/png'));
              } catch (e) {
                blob = file;
              }
            }
            stopCamera();
            if (state.imageURL) URL.revokeObjectURL(state.imageURL);
            state.imageURL = URL.createObjectURL(blob);
            still.src = state.imageURL;
            state.image = blob;
            state.resendImage = true;
            octx.clearRect(0, 0, overlay.width, overlay.height);
            setMode('image');
            pump();
          }

          $('camera').addEventListener('click', startCamera);
          $('stop').addEventListener('click', () => {
            stopCamera();
            setMode('idle');
          });
          $('file').addEventListener('change', (event) => useFile(event.target.files[0]));
          for (const name of ['dragenter', 'dragover']) {
            document.addEventListener(name, (event) => {
              event.preventDefault();
              stage.classList.add('dragging');
            });
          }
          document.addEventListener('dragleave', () => stage.classList.remove('dragging'));
          document.addEventListener('drop', (event) => {
            event.preventDefault();
            stage.classList.remove('dragging');
            if (event.dataTransfer && event.dataTransfer.files.length) useFile(event.dataTransfer.files[0]);
          });

          // ---- drawing, as the CLI's --annotate ----
          function draw(task, r) {
            const w = r.width, h = r.height;
            if (overlay.width !== w) overlay.width = w;
            if (overlay.height !== h) overlay.height = h;
            octx.clearRect(0, 0, w, h);
            const stroke = Math.max(2, Math.min(w, h) / 250);
            const lines = [];
            if (task === 'pose') {
              const colors = [C.yellow, C.green, C.orange, C.white];
              (r.landmarks || []).forEach((pose, i) => {
                skeleton(pose, POSE, colors[i % colors.length], C.red, stroke, 1);
              });
              lines.push(count(r.landmarks, 'pose'));
              for (const [i, mask] of (r.segmentationMasks || []).entries()) {
                lines.push('segmentation mask ' + i + ': ' + summary(mask));
              }
              if (r.maskImages) drawMasks(r.maskImages, [C.cyan, C.magenta, C.blue, C.orange], 0.4);
            } else if (task === 'hands') {
              (r.landmarks || []).forEach((hand, i) => {
                const side = ((r.handedness || [])[i] || [])[0];
                const left = side && side.categoryName === 'Left';
                const line = left ? C.orange : C.cyan;
                skeleton(hand, HAND, line, left ? C.yellow : C.blue, stroke, 1);
                if (side && hand[0]) {
                  const text = (side.categoryName || '?') + ' ' + percent(side.score);
                  label(text, Math.max(0, hand[0].x * w), Math.max(0, hand[0].y * h + 8), line, w, h);
                  lines.push('hand ' + i + ': ' + text);
                }
              });
              lines.unshift(count(r.landmarks, 'hand'));
            } else if (task === 'objects' || task === 'faces') {
              const radius = Math.max(3, Math.min(w, h) / 150);
              for (const d of r.detections || []) {
                const best = (d.categories || [])[0];
                let text = null;
                if (best) {
                  const name = task === 'faces' ? 'face' : best.displayName || best.categoryName || '#' + best.index;
                  text = name + ' ' + percent(best.score);
                }
                box(d.boundingBox, text, w, h);
                lines.push((text || 'detection') + ' at ' + rect(d.boundingBox));
                for (const k of d.keypoints || []) dot(k.x * w, k.y * h, radius, C.red);
              }
              lines.unshift(count(r.detections, task === 'faces' ? 'face' : 'object'));
            } else if (task === 'face-landmarks') {
              for (const face of r.faceLandmarks || []) {
                const radius = Math.max(1, stroke * 0.5);
                for (const p of face) dot(p.x * w, p.y * h, radius, C.grey);
                segments(face, FACE_CONTOURS, C.white, Math.max(1, stroke * 0.5));
                segments(face, FACE_IRISES, C.cyan, Math.max(1, stroke * 0.5));
              }
              const first = (r.faceLandmarks || [])[0] || [];
              lines.push(count(r.faceLandmarks, 'face') + ' (' + first.length + ' landmarks each)');
              (r.faceBlendshapes || []).forEach((shapes, i) => {
                const top = shapes.slice().sort((a, b) => b.score - a.score).slice(0, 8);
                const listed = top.map((s) => s.categoryName + ' ' + fixed(s.score)).join(', ');
                lines.push('face ' + i + ' blendshapes: ' + listed);
              });
              if (r.facialTransformationMatrixes) {
                lines.push('transformation matrixes: ' + r.facialTransformationMatrixes.length);
              }
            } else if (task === 'segment') {
              const labels = r.labels || [];
              const name = (i) => labels[i] !== undefined ? labels[i] : '#' + i;
              if (r.maskImages) drawMasks(r.maskImages, [C.magenta, C.cyan, C.orange, C.blue, C.green, C.red], 0.45);
              for (const [i, mask] of (r.confidenceMasks || []).entries()) {
                lines.push('confidence mask ' + name(i) + ': ' + summary(mask));
              }
              if (r.categoryMask) {
                const m = r.categoryMask;
                const total = m.width * m.height || 1;
                lines.push('category mask ' + m.width + '×' + m.height + ':');
                for (const value of Object.keys(m.counts || {})) {
                  const which = value === '255' ? 'none' : name(Number(value));
                  lines.push('  ' + value + ' (' + which + '): ' + (100 * m.counts[value] / total).toFixed(1) + '%');
                }
              }
              if (r.qualityScores) lines.push('quality scores: ' + r.qualityScores.map(fixed).join(', '));
            }
            $('details').textContent = task + ' · ' + w + '×' + h + '\n' + lines.join('\n');
          }

          // Masks blended under the drawing as --annotate blends them: each confidence mask in its
          // colour with opacity x value, or each category of a category mask in its colour.
          let maskGeneration = 0;
          async function drawMasks(images, palette, opacity) {
            const generation = ++maskGeneration;
            const w = overlay.width, h = overlay.height;
            const confidence = images.filter((m) => m.kind !== 'category');
            const chosen = confidence.length ? confidence : images.filter((m) => m.kind === 'category');
            const layer = document.createElement('canvas');
            layer.width = w;
            layer.height = h;
            const lctx = layer.getContext('2d');
            const scratch = document.createElement('canvas');
            scratch.width = w;
            scratch.height = h;
            const sctx = scratch.getContext('2d', {willReadFrequently: true});
            sctx.imageSmoothingEnabled = false;
            for (const [i, m] of chosen.entries()) {
              const bytes = Uint8Array.from(atob(m.png), (c) => c.charCodeAt(0));
              const bitmap = await createImageBitmap(new Blob([bytes], {type: 'image/png'}));
              sctx.clearRect(0, 0, w, h);
              sctx.drawImage(bitmap, 0, 0, w, h);
              const gray = sctx.getImageData(0, 0, w, h).data;
              const tint = lctx.createImageData(w, h);
              const out = tint.data;
              for (let k = 0; k < out.length; k += 4) {
                const value = gray[k];
                let rgb, alpha;
                if (m.kind === 'category') {
                  if (value === 255) continue;
                  rgb = channels(palette[value % palette.length]);
                  alpha = opacity;
                } else {
                  rgb = channels(palette[i % palette.length]);
                  alpha = opacity * value / 255;
                }
                out[k] = rgb[0];
                out[k + 1] = rgb[1];
                out[k + 2] = rgb[2];
                out[k + 3] = Math.round(alpha * 255);
              }
              sctx.putImageData(tint, 0, 0);
              lctx.drawImage(scratch, 0, 0);
            }
            if (generation !== maskGeneration || overlay.width !== w || overlay.height !== h) return;
            octx.save();
            octx.globalCompositeOperation = 'destination-over';
            octx.drawImage(layer, 0, 0);
            octx.restore();
            window.visionTasks.masksDrawn = (window.visionTasks.masksDrawn || 0) + 1;
          }
          function channels(color) { return color.match(/\d+/g).map(Number); }

          function count(list, noun) {
            const n = (list || []).length;
            return n + ' ' + noun + (n === 1 ? '' : 's');
          }
          function percent(score) { return Math.round(score * 100) + '%'; }
          function fixed(value) { return typeof value === 'number' ? value.toFixed(3) : String(value); }
          function summary(mask) { return mask.width + '×' + mask.height + ', mean ' + fixed(mask.mean); }
          function rect(b) {
            return b ? '(' + [b.x, b.y, b.width, b.height].map((v) => Math.round(v)).join(', ') + ')' : '?';
          }

          function segments(points, pairs, color, width) {
            const w = overlay.width, h = overlay.height;
            octx.strokeStyle = color;
            octx.lineWidth = width;
            octx.lineCap = 'round';
            octx.beginPath();
            for (let i = 0; i + 1 < pairs.length; i += 2) {
              const a = points[pairs[i]], b = points[pairs[i + 1]];
              if (!a || !b) continue;
              octx.moveTo(a.x * w, a.y * h);
              octx.lineTo(b.x * w, b.y * h);
            }
            octx.stroke();
          }

          function dot(x, y, radius, color) {
            octx.fillStyle = color;
            octx.beginPath();
            octx.arc(x, y, radius, 0, 2 * Math.PI);
            octx.fill();
          }

          function skeleton(points, pairs, lineColor, pointColor, stroke, scale) {
            segments(points, pairs, lineColor, Math.max(1, stroke * scale));
            if (!pointColor) return;
            const w = overlay.width, h = overlay.height;
            for (const p of points) dot(p.x * w, p.y * h, stroke * 1.5, pointColor);
          }

          // Black text on a coloured band whose top-left corner is (x, y).
          function label(text, x, y, background, w, h) {
            const size = Math.round(Math.max(12, Math.min(w, h) / 40));
            octx.font = '600 ' + size + 'px system-ui, sans-serif';
            octx.textBaseline = 'top';
            const width = octx.measureText(text).width + size * 0.5;
            const height = size * 1.3;
            x = Math.min(x, Math.max(0, w - width));
            y = Math.min(y, Math.max(0, h - height));
            octx.fillStyle = background;
            octx.fillRect(x, y, width, height);
            octx.fillStyle = C.black;
            octx.fillText(text, x + size * 0.25, y + size * 0.15);
            return height;
          }

          // A detection's box in pixels, in green, with its label above it on a green band.
          function box(b, text, w, h) {
            if (!b) return;
            octx.strokeStyle = C.green;
            octx.lineWidth = Math.max(3, Math.min(w, h) / 250);
            octx.strokeRect(b.x, b.y, b.width, b.height);
            if (text) {
              const size = Math.round(Math.max(12, Math.min(w, h) / 40));
              label(text, Math.max(0, b.x), Math.max(0, b.y - size * 1.3), C.green, w, h);
            }
          }

          // ---- start ----
          async function loadModels() {
            try {
              const response = await fetch('/v1/models', {headers: headers(null)});
              const body = await response.json().catch(() => null);
              if (!response.ok) {
                const error = (body && body.error) || {};
                const message = error.message || 'GET /v1/models failed';
                failed(response.status, error.code || 'http' + response.status, message);
                return;
              }
              for (const model of (body && body.models) || []) {
                const option = taskSelect.querySelector('option[value="' + model.task + '"]');
                if (option && !model.available) option.textContent = model.task + ' (no model: ' + model.file + ')';
              }
            } catch (e) {
              failed(0, 'network', String(e && e.message || e));
            }
          }

          window.addEventListener('hashchange', loadModels);
          selectTask(TASKS[params.get('task')] ? params.get('task') : 'pose');
          setMode('idle');
          loadModels();
        })();
        </script>
        </body>
        </html>
        """#
}
