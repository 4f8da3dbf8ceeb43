// Renders chart thumbnails into the HTML report (runs in the browser page).
export function thumbnail(canvas, width = 240) {
  const scale = width / canvas.width;
  const out = document.createElement("canvas");
  out.width = width;
  out.height = Math.round(canvas.height * scale);
  out.getContext("2d").drawImage(canvas, 0, 0, out.width, out.height);
  return out.toDataURL("image/png"); // data:image/png;base64,...
}

export function embed(report, charts) {
  for (const c of charts) {
    const img = document.createElement("img");
    img.src = thumbnail(c);
    img.alt = c.dataset.title;
    report.append(img);
  }
}
