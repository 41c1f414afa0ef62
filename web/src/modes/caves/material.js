// The rock material: Lambert shading with per-vertex colours (computed in
// the workers, see colours.js) and the
// mesher's per-vertex sky visibility keeping sunlight and sky light out of
// caves. Three has no such input, so the shader is patched where it
// gathers the directional and hemisphere lights.

import * as THREE from 'three';

export function rockMaterial() {
  const material = new THREE.MeshLambertMaterial({ vertexColors: true });
  material.onBeforeCompile = (shader) => {
    shader.vertexShader = shader.vertexShader
      .replace('#include <common>', '#include <common>\nattribute float sky;\nvarying float vSky;')
      .replace('#include <begin_vertex>', '#include <begin_vertex>\nvSky = sky;');
    shader.fragmentShader = shader.fragmentShader
      .replace('#include <common>', '#include <common>\nvarying float vSky;')
      .replace('#include <lights_fragment_begin>', THREE.ShaderChunk.lights_fragment_begin
        .replace('getDirectionalLightInfo( directionalLight, directLight );',
          'getDirectionalLightInfo( directionalLight, directLight );\n\t\tdirectLight.color *= vSky * vSky;')
        .replace('irradiance += getHemisphereLightIrradiance( hemisphereLights[ i ], geometryNormal );',
          'irradiance += getHemisphereLightIrradiance( hemisphereLights[ i ], geometryNormal ) * mix( 0.12, 1.0, vSky );'));
  };
  material.customProgramCacheKey = () => 'mangekyo-rock-sky';
  return material;
}
