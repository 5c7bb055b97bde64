/* The HTML page of a validation run (vks_report_html): one file a browser opens from disk with
 * no network. Styles and histograms (SVG) are inline; the heat maps are PNGs beside it, drawn
 * by the caller with the renderer; the 3D view is three.js, loaded from a script beside the
 * page (a classic script: browsers refuse module imports from file://), fed with the worst
 * instance's vertices, triangles and error colours inlined as JSON. Without three.js the page
 * says so where the view would be. The viewer writes what it drew into #viewer-status, so a
 * headless browser's DOM tells a test whether it ran. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "report_internal.h"
#include "vkskin/skin.h"
#include "core/c_numeric.h"

static const char *style =
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fafafa}"
    "table{border-collapse:collapse;margin:.5em 0 1.5em}td,th{border:1px solid #bbb;padding:3px 8px;text-align:left}"
    "th{background:#e8e8e8}tr.pass td{background:#e6f4e6}tr.fail td{background:#f8d0d0;color:#700}"
    ".verdict-pass{color:#080;font-weight:bold}.verdict-fail{color:#b00;font-weight:bold}"
    ".file{display:flex;flex-wrap:wrap;gap:1em;align-items:flex-start;margin-bottom:2em}"
    ".file>div{background:#fff;border:1px solid #ccc;padding:.5em}canvas.view{width:480px;height:360px;display:block}"
    "code{background:#eee;padding:0 3px}.note{color:#555}";

/* A stream's cell: its largest error relative to the tolerance and the verdict. */
static void stream_cell(FILE *f, const vks_diff_report *r, const char *error)
{
    if (error) {
        fputs("<td>", f);
        vks__report_escape(f, error);
        fputs("</td>", f);
        return;
    }
    fprintf(f, "<td title=\"max abs %.3g, NMSE %.3g\">max rel %.3g, %llu over, %s</td>", r->max_abs, r->nmse,
            r->max_rel, (unsigned long long)r->over, r->pass ? "PASS" : "FAIL");
}

static void summary_table(FILE *f, const vks_report_device *d, uint32_t di, int golden)
{
    fputs("<table><tr><th>file</th><th>format</th><th>vertices</th><th>poses</th><th>positions</th>"
          "<th>normals</th>",
          f);
    if (golden)
        fputs("<th>golden positions</th><th>golden normals</th>", f);
    fputs("<th>bind pose</th><th>verdict</th></tr>\n", f);
    for (uint32_t i = 0; i < d->file_count; i++) {
        const vks_report_file *fi = &d->files[i];
        int fails = vks__report_file_fails(fi);
        fprintf(f, "<tr class=\"%s\"><td><a href=\"#d%u-f%u\">", fails ? "fail" : "pass", di, i);
        vks__report_escape(f, fi->path);
        fputs("</a></td><td>", f);
        vks__report_escape(f, fi->format);
        fprintf(f, "</td><td>%u</td><td>%u</td>", fi->vertices, fi->poses);
        char absent[300] = "";
        if (fi->normals_absent)
            vks__report_absent(absent, sizeof absent, fi->normals_absent);
        const char *n_absent = fi->normals_absent && fi->normals.pass ? absent : NULL;
        const char *gn_absent = fi->normals_absent && fi->golden_normals.pass ? absent : NULL;
        stream_cell(f, &fi->positions, fi->run_error);
        stream_cell(f, &fi->normals, fi->run_error ? fi->run_error : n_absent);
        if (golden && fi->has_golden) {
            stream_cell(f, &fi->golden_positions, fi->golden_error);
            stream_cell(f, &fi->golden_normals, fi->golden_error ? fi->golden_error : gn_absent);
        } else if (golden) {
            fputs("<td>-</td><td>-</td>", f);
        }
        fprintf(f, "<td>%.3g of %.3g: %s</td><td>%s</td></tr>\n", fi->bind_max_error, fi->bind_tolerance,
                fi->bind_pass ? "PASS" : fi->bind_allowed ? "FAIL (allowed)" : "FAIL", fails ? "FAIL" : "PASS");
    }
    fputs("</table>\n", f);
}

/* Bars of vertex-instances per error bin, on a log scale so that one bad vertex among
 * millions still shows; the bins over the tolerance are red. */
static void histogram(FILE *f, const char *title, const vks_error_map *m)
{
    enum { W = 380, H = 150, BAR = 34, TOP = 18, BASE = 118 };
    uint64_t most = 1;
    for (int k = 0; k < VKS_REPORT_BINS; k++)
        most = m->hist[k] > most ? m->hist[k] : most;
    double span = log10((double)most + 1);
    fprintf(f, "<svg class=\"hist\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">", W, H, W, H);
    fputs("<text x=\"4\" y=\"13\" font-size=\"12\">", f);
    vks__report_escape(f, title);
    fputs(": vertex-instances by error / tolerance</text>", f);
    for (int k = 0; k < VKS_REPORT_BINS; k++) {
        double h = m->hist[k] ? (BASE - TOP) * log10((double)m->hist[k] + 1) / span : 0;
        int x = 6 + k * (BAR + 3);
        fprintf(f, "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s: %llu</title></rect>",
                x, BASE - h, BAR, h, k < VKS_REPORT_PASS_BINS ? "#4a8" : "#c33", vks_report_bin_label(k),
                (unsigned long long)m->hist[k]);
        fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"8\" transform=\"rotate(30 %d %d)\">%s</text>", x, BASE + 10, x,
                BASE + 10, vks_report_bin_label(k));
    }
    fputs("</svg>\n", f);
}

/* The worst instance for the 3D view: positions, triangles (global vertex numbers) and a colour
 * per vertex from its error, as one JSON object. */
static void mesh_json(FILE *f, const vks_skin *s, const vks_error_map *m)
{
    fputs("{\"positions\":[", f);
    for (uint32_t v = 0; v < m->vertices; v++)
        for (int k = 0; k < 3; k++) {
            float x = m->positions[(size_t)v * 3 + k];
            fprintf(f, "%s%.6g", v || k ? "," : "", isfinite(x) ? x : 0.0f);
        }
    fputs("],\"colors\":[", f);
    for (uint32_t v = 0; v < m->vertices; v++) {
        uint8_t c[3];
        vks_report_error_color(m->error[v], c);
        fprintf(f, "%s%u,%u,%u", v ? "," : "", c[0], c[1], c[2]);
    }
    fputs("],\"indices\":[", f);
    int first = 1;
    for (uint32_t me = 0; me < s->mesh_count; me++) {
        const vks_mesh *mesh = &s->meshes[me];
        for (uint32_t t = mesh->first_triangle; t < mesh->first_triangle + mesh->triangle_count; t++)
            for (int k = 0; k < 3; k++, first = 0)
                fprintf(f, "%s%u", first ? "" : ",", mesh->first_vertex + s->triangles[t][k]);
    }
    fprintf(f, "],\"worst\":%.6g,\"instance\":%u}", isfinite(m->worst) ? m->worst : 1e30, m->worst_instance);
}

/* The viewer: per canvas one three.js scene of its mesh, coloured per vertex, lit from the
 * camera's side, turned by dragging. It renders once at load (and on each drag), then checks
 * that its canvas is not one colour and says so in #viewer-status. */
static const char *viewer_js =
    "(function(){\n"
    "var status=document.getElementById('viewer-status');\n"
    "var views=document.querySelectorAll('canvas.view'),drawn=0,uniform=0;\n"
    "views.forEach(function(cv){\n"
    " var data=JSON.parse(document.getElementById(cv.dataset.mesh).textContent);\n"
    " var r=new THREE.WebGLRenderer({canvas:cv,antialias:true,preserveDrawingBuffer:true});\n"
    " r.setSize(cv.clientWidth,cv.clientHeight,false);r.setClearColor(0x262a30);\n"
    " var g=new THREE.BufferGeometry();\n"
    " g.setAttribute('position',new THREE.Float32BufferAttribute(data.positions,3));\n"
    " var c=new Float32Array(data.colors.length);for(var i=0;i<c.length;i++)c[i]=data.colors[i]/255;\n"
    " g.setAttribute('color',new THREE.BufferAttribute(c,3));g.setIndex(data.indices);g.computeVertexNormals();\n"
    " g.computeBoundingSphere();var bs=g.boundingSphere;\n"
    " var mesh=new THREE.Mesh(g,new THREE.MeshLambertMaterial({vertexColors:true,side:THREE.DoubleSide}));\n"
    " mesh.position.copy(bs.center).multiplyScalar(-1);var pivot=new THREE.Group();pivot.add(mesh);\n"
    " var scene=new THREE.Scene();scene.add(pivot);scene.add(new THREE.AmbientLight(0xffffff,0.45));\n"
    " var light=new THREE.DirectionalLight(0xffffff,0.8);light.position.set(-1,1.5,2);scene.add(light);\n"
    " var cam=new THREE.PerspectiveCamera(35,cv.clientWidth/cv.clientHeight,bs.radius*0.05,bs.radius*20);\n"
    " cam.position.set(0,0,bs.radius*3.2);\n"
    " var draw=function(){r.render(scene,cam);};draw();\n"
    " var down=null;cv.addEventListener('pointerdown',function(e){down=[e.clientX,e.clientY];});\n"
    " window.addEventListener('pointerup',function(){down=null;});\n"
    " cv.addEventListener('pointermove',function(e){if(!down)return;pivot.rotation.y+=(e.clientX-down[0])*0.01;\n"
    "  pivot.rotation.x+=(e.clientY-down[1])*0.01;down=[e.clientX,e.clientY];draw();});\n"
    " var gl=r.getContext(),w=gl.drawingBufferWidth,h=gl.drawingBufferHeight,px=new Uint8Array(w*h*4);\n"
    " gl.readPixels(0,0,w,h,gl.RGBA,gl.UNSIGNED_BYTE,px);var differ=0;\n"
    " for(var p=4;p<px.length;p+=4)if(px[p]!=px[0]||px[p+1]!=px[1]||px[p+2]!=px[2]){differ++;}\n"
    " if(differ)drawn++;else uniform++;\n"
    "});\n"
    "status.textContent='viewer ready: '+drawn+' view(s) drawn, '+uniform+' uniform';\n"
    "status.dataset.drawn=drawn;status.dataset.uniform=uniform;\n"
    "})();\n";

static void file_section(FILE *f, const vks_report *r, uint32_t di, uint32_t i, int *views)
{
    const vks_report_file *fi = &r->devices[di].files[i];
    fprintf(f, "<h3 id=\"d%u-f%u\">", di, i);
    vks__report_escape(f, fi->path);
    fprintf(f, " <span class=\"verdict-%s\">%s</span></h3>\n", vks__report_file_fails(fi) ? "fail" : "pass",
            vks__report_file_fails(fi) ? "FAIL" : "PASS");
    char line[1200];
    fputs("<ul>", f);
    const vks_diff_report *rs[4] = {&fi->positions, &fi->normals, &fi->golden_positions, &fi->golden_normals};
    const char *names[4] = {"positions", "normals", "golden positions", "golden normals"};
    const vks_error_map *maps[4] = {fi->position_errors, fi->normal_errors, fi->golden_errors, NULL};
    for (int k = 0; k < (fi->has_golden ? 4 : 2); k++) {
        const char *error = k < 2 ? fi->run_error : fi->golden_error;
        fprintf(f, "<li><b>%s</b>: ", names[k]);
        if (error) {
            vks__report_escape(f, error);
        } else if (fi->normals_absent && (k == 1 || k == 3) && rs[k]->pass) {
            vks__report_absent(line, sizeof line, fi->normals_absent);
            vks__report_escape(f, line);
        } else {
            vks__report_metrics(line, sizeof line, rs[k]);
            vks__report_escape(f, line);
            vks__report_over(line, sizeof line, maps[k]);
            if (*line) {
                fputs("<br>", f);
                vks__report_escape(f, line);
            }
        }
        fputs("</li>", f);
    }
    vks__report_bind(line, sizeof line, fi);
    fputs("<li><b>bind pose</b>: ", f);
    vks__report_escape(f, line);
    fputs("</li></ul>\n<div class=\"file\">", f);
    if (fi->position_errors) {
        fputs("<div>", f);
        histogram(f, "positions", fi->position_errors);
        if (fi->normal_errors && !(fi->normals_absent && fi->normals.pass))
            histogram(f, "normals", fi->normal_errors);
        fputs("</div>", f);
    }
    if (fi->heatmap) {
        fputs("<div><img class=\"heatmap\" alt=\"heat map of the worst instance\" src=\"", f);
        vks__report_escape(f, fi->heatmap);
        fprintf(f, "\"><br><span class=\"note\">heat map: instance %u, the worst, drawn by vkskin's renderer; "
                   "colour = error / tolerance</span></div>",
                fi->position_errors ? fi->position_errors->worst_instance : 0);
    } else if (fi->heatmap_missing) { /* a picture that cannot be drawn is said so */
        fputs("<div><p class=\"note heatmap-missing\">No heat map: ", f);
        vks__report_escape(f, fi->heatmap_missing);
        fputs("</p></div>", f);
    }
    if (fi->skin && fi->position_errors && fi->position_errors->vertices == fi->skin->vertex_count) {
        fputs("<div>", f);
        if (r->three_js) {
            fprintf(f, "<canvas class=\"view\" width=\"480\" height=\"360\" data-mesh=\"mesh-%d\"></canvas>", *views);
            fprintf(f, "<script type=\"application/json\" id=\"mesh-%d\">", *views);
            mesh_json(f, fi->skin, fi->position_errors);
            fputs("</script><span class=\"note\">3D view (three.js): drag to turn</span>", f);
            ++*views;
        } else {
            fputs("<p class=\"note\">No 3D view: ", f);
            vks__report_escape(f, r->three_js_missing ? r->three_js_missing : "three.js is not available");
            fputs("</p>", f);
        }
        fputs("</div>", f);
    }
    fputs("</div>\n", f);
}

/* The colour scale the heat maps and the 3D view use, as a gradient bar. */
static void legend(FILE *f)
{
    static const double at[] = {1e-4, 1e-3, 1e-2, 0.1, 1.0, 10.0, 100.0};
    fputs("<p>Colour scale (error / tolerance): ", f);
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        uint8_t c[3];
        vks_report_error_color(at[k], c);
        fprintf(f, "<span style=\"background:#%02x%02x%02x;padding:0 6px;color:%s\">%g</span> ", c[0], c[1], c[2],
                k < 4 ? "#fff" : "#000", at[k]);
    }
    fputs("(1 is the tolerance)</p>\n", f);
}

static vks_result report_html_body(const vks_report *r, FILE *f, vks_error *err)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>vkskin validate: ", f);
    fputs(r->exit_code ? "FAIL" : "PASS", f);
    fprintf(f, "</title><style>%s</style></head><body>\n<h1>vkskin validate: <span class=\"verdict-%s\">%s</span>"
               " (exit %d)</h1>\n",
            style, r->exit_code ? "fail" : "pass", r->exit_code ? "FAIL" : "PASS", r->exit_code);
    fputs("<p>vkskin ", f);
    vks__report_escape(f, r->version);
    fprintf(f, "; tolerance scale <b>%g</b> (multiplies the derived position and normal tolerances); NMSE bound "
               "<b>%g</b>",
            r->tolerance_scale, r->nmse);
    if (r->against) {
        fputs("; compared with the golden <code>", f);
        vks__report_escape(f, r->against);
        fputs("</code>", f);
    }
    fputs("</p>\n", f);
    if (r->command) {
        fputs("<p><code>", f);
        vks__report_escape(f, r->command);
        fputs("</code></p>\n", f);
    }
    legend(f);
    int golden = r->against != NULL, views = 0;
    for (uint32_t di = 0; di < r->device_count; di++) {
        const vks_report_device *d = &r->devices[di];
        fputs("<h2>Device: ", f);
        vks__report_escape(f, d->name);
        fputs(" (", f);
        vks__report_escape(f, d->type);
        fprintf(f, ") <span class=\"verdict-%s\">exit %d</span></h2>\n", d->exit_code ? "fail" : "pass", d->exit_code);
        if (d->error) {
            fputs("<p class=\"verdict-fail\">could not run: ", f);
            vks__report_escape(f, d->error);
            fputs("</p>\n", f);
            continue;
        }
        if (d->validation_layer)
            fprintf(f, "<p>Khronos validation layer: %u message(s)</p>\n", d->validation_messages);
        summary_table(f, d, di, golden);
        for (uint32_t i = 0; i < d->file_count; i++)
            file_section(f, r, di, i, &views);
    }
    fputs("<p id=\"viewer-status\">", f);
    fputs(views ? "viewer not run" : "no 3D view in this report", f);
    fputs("</p>\n", f);
    if (views && r->three_js) {
        fputs("<script src=\"", f);
        vks__report_escape(f, r->three_js);
        fprintf(f, "\"></script>\n<script>%s</script>\n", viewer_js);
    }
    fputs("</body></html>\n", f);
    if (fflush(f) != 0 || ferror(f))
        return vks_error_set(err, VKS_ERR_IO, VKS_NO_OFFSET, "report/html", "write failed: %s", strerror(errno));
    return VKS_OK;
}

/* The body above, under the C locale's numbers whatever the host's setlocale() (c_numeric.h). */
vks_result vks_report_html(const vks_report *r, FILE *f, vks_error *err)
{
    VKS_RETURN_IN_C_NUMERIC(vks_result, report_html_body(r, f, err));
}
