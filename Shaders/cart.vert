#version 330 core
// The cart game's meshes: colour per vertex, lit and fogged per vertex, so the fragment stage
// only passes a colour on. On Mesa's llvmpipe every covered pixel runs the fragment shader on
// the CPU, and per-pixel Blinn-Phong over a screen of tunnel was most of the frame. The terms
// are lit.frag's: the game's shapes are flat-shaded boxes under one directional light, so
// diffuse and fill are constant per face and per-vertex gives the same picture (the ground is
// cut into 1 m strips so its faint specular and the fog interpolate smoothly).
layout(location = 0) in vec3 aPosition;
layout(location = 1) in vec3 aNormal;
layout(location = 2) in vec3 aColor;

uniform mat4 uModel;            // the mine's scroll along the track, or identity
uniform mat4 uViewProjection;
uniform vec3 uCameraPosition;
uniform vec3 uLightDirection;   // toward the light, unit length
uniform float uShininess;       // specular exponent
uniform vec3 uFogColor;
uniform float uFogStart;        // metres from the eye where the fog begins
uniform float uFogEnd;          // metres from the eye where only fog is left

out vec3 vColor;

void main() {
    vec4 world = uModel * vec4(aPosition, 1.0);
    vec3 n = normalize(mat3(uModel) * aNormal);
    vec3 toEye = uCameraPosition - world.xyz;
    float distance = length(toEye);
    toEye /= max(distance, 1e-4);
    vec3 l = normalize(uLightDirection);
    vec3 h = normalize(l + toEye);
    float diffuse = max(dot(n, l), 0.0);
    float specular = diffuse > 0.0 ? pow(max(dot(n, h), 0.0), uShininess) : 0.0;
    // A little light from below so the shadowed side keeps its shape.
    float fill = 0.25 * max(dot(n, -l), 0.0);
    vec3 lit = aColor * (0.18 + 0.82 * diffuse + fill) + vec3(0.55) * specular;
    // Linear fog: the tunnel fades into the dark instead of ending where the track is built.
    float fog = clamp((distance - uFogStart) / (uFogEnd - uFogStart), 0.0, 1.0);
    vColor = mix(lit, uFogColor, fog);
    gl_Position = uViewProjection * world;
}
