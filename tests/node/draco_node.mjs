// KHR_draco_mesh_compression for three.js's GLTFLoader in Node. DRACOLoader decodes in Web
// Workers, which Node lacks; GLTFLoader only needs its decodeDracoFile interface, so this object
// offers that, backed by Google's own Draco decoder for glTF (the npm package draco3dgltf, the
// WebAssembly build of libdraco's decoder) and building the geometry as DRACOLoader's worker
// and _createGeometry do (attributes by their unique ids, as glTF stores them).
import draco3d from 'draco3dgltf';
import * as THREE from 'three';

// The Emscripten module is a thenable that resolves to itself: awaiting it would never end,
// so its then is taken away once it is ready.
const draco = await new Promise((resolve) => draco3d.createDecoderModule({}).then((m) => {
  delete m.then;
  resolve(m);
}));

function dataType(type) {
  return {
    Float32Array: draco.DT_FLOAT32, Int8Array: draco.DT_INT8, Int16Array: draco.DT_INT16, Int32Array: draco.DT_INT32,
    Uint8Array: draco.DT_UINT8, Uint16Array: draco.DT_UINT16, Uint32Array: draco.DT_UINT32,
  }[type];
}

// One Draco mesh as a BufferGeometry: attributeIDs maps three.js attribute names to Draco
// unique ids, attributeTypes to typed array names (the accessors' component types).
function decode(bytes, attributeIDs, attributeTypes) {
  const decoder = new draco.Decoder(), mesh = new draco.Mesh();
  try {
    if (decoder.GetEncodedGeometryType(bytes) !== draco.TRIANGULAR_MESH) throw new Error('Draco: not a triangle mesh');
    const status = decoder.DecodeArrayToMesh(bytes, bytes.byteLength, mesh);
    if (!status.ok() || mesh.ptr === 0) throw new Error('Draco: decoding failed: ' + status.error_msg());
    const geometry = new THREE.BufferGeometry();
    for (const name in attributeIDs) {
      const Type = globalThis[attributeTypes[name]];
      const attribute = decoder.GetAttributeByUniqueId(mesh, attributeIDs[name]);
      const components = attribute.num_components(), values = mesh.num_points() * components;
      const ptr = draco._malloc(values * Type.BYTES_PER_ELEMENT);
      decoder.GetAttributeDataArrayForAllPoints(mesh, attribute, dataType(attributeTypes[name]),
        values * Type.BYTES_PER_ELEMENT, ptr);
      geometry.setAttribute(name, new THREE.BufferAttribute(new Type(draco.HEAPF32.buffer, ptr, values).slice(), components));
      draco._free(ptr);
    }
    const indices = mesh.num_faces() * 3, ptr = draco._malloc(indices * 4);
    decoder.GetTrianglesUInt32Array(mesh, indices * 4, ptr);
    geometry.setIndex(new THREE.BufferAttribute(new Uint32Array(draco.HEAPF32.buffer, ptr, indices).slice(), 1));
    draco._free(ptr);
    return geometry;
  } finally {
    draco.destroy(mesh);
    draco.destroy(decoder);
  }
}

// What GLTFLoader.setDRACOLoader needs of a DRACOLoader.
export const dracoNode = {
  preload() { return this; },
  decodeDracoFile(buffer, onLoad, attributeIDs, attributeTypes, _colorSpace, onError = () => {}) {
    let geometry;
    try {
      geometry = decode(new Int8Array(buffer), attributeIDs, attributeTypes);
    } catch (e) {
      onError(e);
      return;
    }
    onLoad(geometry);
  },
};
